"""The 9 attributes of seed 000 §3.2."""

from __future__ import annotations

import numpy as np

from newscrawl.extract.features import (
    EDIT_CAP, FEATURES, node_features, title_edit_distance, title_edit_distances, with_title_distance)
from newscrawl.page import Page

HTML = """<html><head><title>Storm hits the coast | Daily Paper</title>
<style>.date { color: #888888; font-size: 12px } h1 { font-size: 36px }</style></head><body>
<h1>Storm hits the coast</h1><div class="date">Published 12.03.2024 10:45</div>
<p>Heavy rain and wind caused damage along the coast on Monday night.</p>
<p>Residents were told to stay indoors until the morning.</p></body></html>"""


def _row(X: np.ndarray, i: int) -> dict[str, float]:
    return dict(zip(FEATURES, X[i]))


def test_text_digit_and_style_features():
    page = Page.from_html(HTML, style_elements=True)
    nodes = list(range(len(page.text_nodes)))
    X = node_features(page, nodes)
    title, date, p1, p2 = (_row(X, i) for i in range(4))
    assert title["length"] == len("Storm hits the coast")
    assert date["digits"] == 12 and abs(date["digit_share"] - 12 / len("Published 12.03.2024 10:45")) < 1e-9
    assert title["font_size"] == 36.0 and title["font_size_rel"] == 100.0
    assert date["font_size"] == 12.0 and abs(date["font_size_rel"] - 100 * 12 / 36) < 1e-9
    assert title["bold"] == 1.0 and p1["bold"] == 0.0
    # the two paragraphs share one style; the title and the date are unique
    assert p1["similar_style"] == 2 and p2["similar_style"] == 2
    assert title["similar_style"] == 1 and date["similar_style"] == 1


def test_title_edit_distance_is_weighted_and_normalised():
    title = "Storm hits the coast | Daily Paper"
    # the node lacks only the site name: 14 insertions of cost 1
    assert abs(title_edit_distance("Storm hits the coast", title) - 14 / len(title)) < 1e-9
    # extra node text costs 4 per deleted character
    assert abs(title_edit_distance(title + "!!", title) - 8 / len(title)) < 1e-9
    assert title_edit_distance(title, title) == 0.0
    assert title_edit_distance("x" * 5000, title) == EDIT_CAP
    assert title_edit_distance("anything", "") == EDIT_CAP


def test_title_edit_feature_ranks_the_headline_first():
    page = Page.from_html(HTML)
    X = node_features(page, list(range(len(page.text_nodes))))
    edit = X[:, FEATURES.index("title_edit")]
    assert int(np.argmin(edit)) == 0


def test_signed_distance_to_title():
    page = Page.from_html(HTML)
    nodes = list(range(len(page.text_nodes)))
    X = with_title_distance(node_features(page, nodes), nodes, 1)
    assert list(X[:, FEATURES.index("title_distance")]) == [-1.0, 0.0, 1.0, 2.0]
    X = with_title_distance(node_features(page, nodes), nodes, None)
    assert not X[:, FEATURES.index("title_distance")].any()


def test_repeated_texts_get_the_distance_each_would_get_alone():
    """Distinct texts are measured once and the distances spread back to every row: rows in the
    given order, repeats and case variants (one casefolded text) included."""
    from rapidfuzz.distance import Levenshtein

    title = "Storm Hits The Coast"
    texts = ["Share", "storm hits the coast", "Share", "SHARE", "Storm hits", "", "Share", "x" * 200, "Storm hits"]
    expected = [min(Levenshtein.distance(t.casefold(), title.casefold(), weights=(1, 4, 2)) / len(title), EDIT_CAP)
                for t in texts]
    assert title_edit_distances(texts, title).tolist() == expected
    assert title_edit_distances([], title).tolist() == [] and title_edit_distances(texts, "").tolist() == [EDIT_CAP] * 9


def test_headline_edit_column_is_measured_as_the_title_column():
    """A headline spelled as <title> (up to case) reuses the title's distances; any other headline is
    measured on its own. Either way each column holds the capped distance of every row near the
    reference's length and EDIT_CAP elsewhere."""
    page = Page.from_html(HTML.replace("<p>Residents", "<p>" + "Long text. " * 30 + "</p><p>Residents"))
    nodes = list(range(len(page.text_nodes)))
    texts = [page.text_nodes[k].text for k in nodes]
    lengths = np.array([len(t) for t in texts])

    def column(reference: str) -> list[float]:
        near = lengths < 4 * len(reference) + 40
        expected = np.full(len(texts), EDIT_CAP)
        expected[near] = title_edit_distances([t for t, ok in zip(texts, near) if ok], reference)
        return expected.tolist()

    for meta in (page.title_text, page.title_text.upper(), "Storm hits the coast", "x"):
        X = node_features(page, nodes, meta)
        assert X[:, FEATURES.index("title_edit")].tolist() == column(page.title_text)
        assert X[:, FEATURES.index("meta_title_edit")].tolist() == column(meta)
    assert not (lengths < 4 * len("x") + 40).all()  # some rows are left at the cap


def test_edit_distances_only_for_rows_the_title_model_reads():
    from newscrawl.extract.features import MAX_TITLE_LEN

    title = " ".join(f"word{i}" for i in range(40))  # 229 characters
    near = title + " and a few more words"  # under MAX_TITLE_LEN: measured
    long = title + " " + "x" * (MAX_TITLE_LEN - len(title))  # over it: capped, never measured
    assert len(near) <= MAX_TITLE_LEN < len(long)
    page = Page.from_html(f"<html><head><title>{title}</title></head><body><p>{near}</p><p>{long}</p></body></html>")
    X = node_features(page, [0, 1], meta_title=title)
    for col in ("title_edit", "meta_title_edit"):
        assert X[0, FEATURES.index(col)] == title_edit_distance(near, title) < 1
        assert X[1, FEATURES.index(col)] == EDIT_CAP
    assert title_edit_distance(long, title) < EDIT_CAP  # what a measurement would have given


def test_a_reference_longer_than_any_title_is_measured_by_its_start(monkeypatch):
    """An unclosed <title> that swallowed the page, or a megabyte og:title: the distances are
    measured against the first MAX_REFERENCE_LEN characters, so their cost stays bounded."""
    import newscrawl.extract.features as features

    lengths: list[int] = []
    cdist = features.process.cdist

    def recording(queries, choices, **kwargs):
        lengths.extend(len(c) for c in choices)
        return cdist(queries, choices, **kwargs)

    monkeypatch.setattr(features.process, "cdist", recording)
    start = "Storm hits the coast " * 40
    huge = start + "x" * 200_000
    page = Page.from_html(f"<html><head><title>{huge}</title></head><body><p>Storm hits</p>"
                          "<p>Rain all night</p></body></html>")
    X = node_features(page, [0, 1], meta_title=huge)
    assert lengths and max(lengths) == features.MAX_REFERENCE_LEN < len(huge)
    capped = huge[:features.MAX_REFERENCE_LEN]
    expected = title_edit_distances(["Storm hits", "Rain all night"], capped).tolist()
    for col in ("title_edit", "meta_title_edit"):
        assert X[:, FEATURES.index(col)].tolist() == expected
