"""Where the opt-in words model may read its text models: the English-share gate and the dated-page rule."""

from __future__ import annotations

import numpy as np
import pytest

from newscrawl.classify.features import FEATURE_NAMES
from newscrawl.classify.page import DATED_WEIGHT, NO_URL_MODEL_FILE, dated, load, page_model_file
from newscrawl.classify.text import ENGLISH_SHARE, english_share, page_text, text_inputs, text_probabilities
from newscrawl.extract.api import extraction_evidence
from newscrawl.page import Page
from newscrawl.paths import models_dir
from tests.classify.bare import feature_vector, probability

ENGLISH = ("The council said on Tuesday that it would fund the new flood defences, which have been "
           "promised for years, and that work on the river wall will start in the spring.")
OTHERS = {
    "de": "Der Stadtrat hat am Dienstag beschlossen, die neuen Deiche zu finanzieren, die seit Jahren "
          "versprochen sind; die Arbeiten an der Ufermauer beginnen im Frühjahr.",
    "es": "El ayuntamiento anunció el martes que financiará las nuevas defensas contra inundaciones, "
          "prometidas desde hace años, y que las obras empezarán en primavera.",
    "pl": "Rada miasta ogłosiła we wtorek, że sfinansuje nowe wały przeciwpowodziowe, obiecywane od lat, "
          "a prace przy murze nad rzeką ruszą wiosną.",
    "fr": "Le conseil a annoncé mardi qu'il financerait les nouvelles digues, promises depuis des années, "
          "et que les travaux sur le mur du fleuve commenceront au printemps.",
}


def test_english_share_separates_english_from_other_languages():
    assert english_share(ENGLISH) >= 2 * ENGLISH_SHARE
    for lang, text in OTHERS.items():
        assert english_share(text) < ENGLISH_SHARE, lang
    assert english_share("") == 0.0 and english_share("2025 12:30 -- 42") == 0.0
    assert english_share("THE Of AND") == 1.0  # case-insensitive, whole words only
    assert english_share("theory offer android") == 0.0


def _page(paragraph: str, dated: bool, url: str | None = "https://example.com/city/council-flood-defences") -> Page:
    date = "<p class='meta'>4 March 2025</p>" if dated else ""
    html = ("<html><head><title>Council flood defences</title></head><body><article><h1>Council flood defences</h1>"
            f"{date}" + f"<p>{paragraph}</p>" * 6 + "</article></body></html>")
    return Page.from_html(html, url)


def _parts(page: Page) -> tuple[list[float], float, float]:
    """The page's features, the default model's probability and the words model's own probability."""
    words, texts = load(page_model_file("words"))
    article, _ = extraction_evidence(page)
    row = feature_vector(page)
    default = load(None if page.url else str(models_dir() / NO_URL_MODEL_FILE))[0].positive_proba([row])[0]
    own = words.positive_proba([row + text_probabilities(texts, text_inputs(page, article.title))])[0]
    return row, float(default), float(own)


def test_english_share_counts_the_letter_runs_findall_finds():
    """english_share works on code points as arrays; its share must be that of the words the regex
    finds in the lower-cased text: non-ASCII letters, digits and "_" inside runs, marks, ligatures,
    case changes that alter length, astral and unpaired surrogate code points."""
    import random
    import re

    from newscrawl.classify.text import ENGLISH_WORDS

    def reference(text: str) -> float:
        words = re.findall(r"[^\W\d_]+", text.lower())
        return sum(w in ENGLISH_WORDS for w in words) / len(words) if words else 0.0

    rng = random.Random(4)
    pool = ["the", "of", "and", "THE", "which", "whichs", "a", "I", "ünd", "ßa", "İi", "ǅ", "²", "½", "7", "_", "é",
            "e\u0301", "\ud800", "x", "\U0001d400", "ﬁ", "ς", "Σ", "’", "-", "\n", " ", "  ", "theＡ", "an\u00a0"]
    texts = ["".join(rng.choice(pool) for _ in range(rng.randint(0, 50))) for _ in range(3000)]
    texts += ["".join(chr(rng.randint(0, 0x2FFFF)) for _ in range(rng.randint(0, 30))) for _ in range(1000)]
    for text in texts:
        assert english_share(text) == reference(text), repr(text)


@pytest.mark.parametrize("lang", sorted(OTHERS))
def test_words_model_leaves_pages_in_other_languages_to_the_default(lang):
    page = _page(OTHERS[lang], dated=False)
    assert english_share(page_text(page, "Council flood defences")) < ENGLISH_SHARE
    _, default, own = _parts(page)
    assert own != pytest.approx(default)  # the words model alone would say something else
    assert probability(page, model_path=page_model_file("words")) == pytest.approx(default)


def test_words_model_reads_english_pages_and_lowers_a_dated_one_only_part_of_the_way():
    visible_date = FEATURE_NAMES.index("visible_date")
    undated, dated = _page(ENGLISH, dated=False), _page(ENGLISH, dated=True)
    row, default, own = _parts(undated)
    assert row[visible_date] == 0.0 and own != pytest.approx(default)
    assert probability(undated, model_path=page_model_file("words")) == pytest.approx(own)
    row, default, own = _parts(dated)
    assert row[visible_date] == 1.0 and own < default - 0.5  # the words model alone would drop it
    p = probability(dated, model_path=page_model_file("words"))
    assert p == pytest.approx(default + DATED_WEIGHT * (own - default)) and p >= 0.5 > own


def test_a_date_in_the_url_dates_the_page_as_a_visible_date_does():
    url_date, visible_date = FEATURE_NAMES.index("url_date"), FEATURE_NAMES.index("visible_date")
    page = _page(ENGLISH, dated=False, url="https://example.com/2025/03/04/council-flood-defences")
    row, default, own = _parts(page)
    assert row[url_date] == 1.0 and row[visible_date] == 0.0
    assert own < default - 0.05  # the words model alone would lower it further
    p = probability(page, model_path=page_model_file("words"))
    assert p == pytest.approx(default + DATED_WEIGHT * (own - default)) and p > own + 0.03
    assert list(dated(np.array([row, _parts(_page(ENGLISH, dated=False))[0]]))) == [True, False]


def test_words_model_on_a_page_without_url_falls_back_to_the_url_less_model():
    page = _page(OTHERS["de"], dated=False, url=None)
    _, default, _ = _parts(page)
    assert probability(page, model_path=page_model_file("words", None)) == pytest.approx(default)
    assert probability(page) == pytest.approx(default)


def test_words_model_as_applied_on_demo_articles_and_listings():
    from newscrawl.demo import build_demo_site

    site, base, words = build_demo_site(seed=11), "https://news.example.org", page_model_file("words")  # unseen seed
    kinds = {kind: [p for p, t in sorted(site.truth.items()) if t.kind == kind][:4]
             for kind in ("article", "section", "tag", "author", "home")}
    p = {kind: [probability(Page.from_html(site.resolve(path, base).body, base + path), model_path=words) for path in paths]
         for kind, paths in kinds.items()}
    assert len(p["article"]) == 4 and min(p["article"]) >= 0.5
    assert max(q for kind, qs in p.items() if kind != "article" for q in qs) < 0.5
