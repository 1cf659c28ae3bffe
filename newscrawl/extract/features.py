"""The 9 attributes of seed 000 §3.2 for each text node of the evaluated subset.

Columns (``FEATURES``): text length, digit count, digit share, font size (px), font size relative
to the largest seen (%), bold, number of similarly styled nodes (same size, colour, family,
bold), signed distance in text nodes to the detected title (date model only), and the weighted
edit distance to the ``<title>`` text (insert 1, substitute 2, delete 4, over the title length;
title model only). The edit distance runs in C (rapidfuzz) with a cutoff, so pages with
thousands of nodes cost little.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import cast

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from newscrawl.page import Page

FEATURES = (
    "length",
    "digits",
    "digit_share",
    "font_size",
    "font_size_rel",
    "bold",
    "similar_style",
    "title_distance",
    "title_edit",
    "meta_title_edit",
)
# The paper's title attributes (1-7, 9); the shipped title model may add meta_title_edit, the
# same weighted edit distance to the page's structured headline (JSON-LD/OpenGraph), when the
# grouped cross-validation says it helps (docs/decisions.md, "Title and date models").
PAPER_TITLE_FEATURES = tuple(f for f in FEATURES if f not in ("title_distance", "meta_title_edit"))
TITLE_FEATURES = PAPER_TITLE_FEATURES + ("meta_title_edit",)
DATE_FEATURES = tuple(f for f in FEATURES if f not in ("title_edit", "meta_title_edit"))
EDIT_CAP = 4.0  # edit distances above this many title lengths are all "unlike the title"
MAX_TITLE_LEN = 300  # longer nodes are never scored as titles (no gold title is this long)
# A reference (<title> or structured headline) longer than this is broken or hostile markup: an
# unclosed <title> that swallowed the page, a megabyte og:title. Its first MAX_REFERENCE_LEN
# characters stand for it, which bounds the distances' cost (a row's cost grows with the reference's
# length: 100 KB took 4.8 s over 300 paragraphs). The dev pages' longest <title> has 258 characters.
MAX_REFERENCE_LEN = 1000
_DIGIT = re.compile(r"\d")
_WEIGHTS = (1, 4, 2)  # (insertion, deletion, substitution) turning node text into the title


def title_edit_distance(text: str, title: str) -> float:
    """EditDistance(node text, <title>) / len(<title>), capped at EDIT_CAP."""
    return float(title_edit_distances([text], title)[0])


def title_edit_distances(texts: Sequence[str], title: str) -> np.ndarray:
    """:func:`title_edit_distance` of each text, in one rapidfuzz call (the per-call overhead
    was most of the cost on pages with hundreds of nodes)."""
    return _edit_distances([t.casefold() for t in texts], title.casefold(), len(title))


def _edit_distances(folded: Sequence[str], title: str, m: int) -> np.ndarray:
    """:func:`title_edit_distances` of casefolded texts to the casefolded title (``m``: the title's
    length before casefolding). Each distinct text is measured once: a page repeats short texts
    (bylines, "Share", dates) and the distance is a function of the text."""
    if not m or not folded:
        return np.full(len(folded), EDIT_CAP)
    if m > MAX_REFERENCE_LEN:
        title, m = title[:MAX_REFERENCE_LEN], MAX_REFERENCE_LEN
    cutoff = int(EDIT_CAP * m)  # farther than this is "unlike the title" (returned as cutoff + 1)
    position: dict[str, int] = {}
    rows = [position.setdefault(t, len(position)) for t in folded]
    d = process.cdist(
        list(position),
        [title],
        scorer=Levenshtein.distance,
        scorer_kwargs={"weights": _WEIGHTS},
        score_cutoff=cutoff,
        dtype=np.int64,
    )[:, 0]
    return np.minimum(d[rows] / m, EDIT_CAP)


def style_key(style: object) -> tuple:
    """What makes two text styles 'similar' (seed §3.2 attribute 7)."""
    return (
        round(float(getattr(style, "font_size", 16.0)), 1),
        getattr(style, "color", ""),
        getattr(style, "font_family", ""),
        bool(getattr(style, "bold", False)),
    )


def node_features(page: Page, nodes: Sequence[int], meta_title: str | None = None) -> np.ndarray:
    """Rows of FEATURES for ``nodes`` (text-node indices); title_distance is left 0 (see
    :func:`with_title_distance`); ``meta_title`` is the structured headline, if any. The two edit
    distances are measured on rows the title model may read (at most MAX_TITLE_LEN characters);
    longer rows get EDIT_CAP."""
    X = np.zeros((len(nodes), len(FEATURES)))
    if not len(nodes):
        return X
    tns = page.text_nodes
    texts = [tns[k].text for k in nodes]
    styles = [page.style(tns[k].container) for k in nodes]
    # a page's nodes share a few style objects: size, bold and similarity key read once for each
    by_style: dict[int, tuple[float, float, tuple]] = {}
    for s in styles:
        if id(s) not in by_style:
            by_style[id(s)] = (
                float(getattr(s, "font_size", 16.0) or 16.0),
                1.0 if getattr(s, "bold", False) else 0.0,
                style_key(s),
            )
    read = [by_style[id(s)] for s in styles]
    sizes = [r[0] for r in read]
    biggest = max(sizes) or 16.0
    keys = [r[2] for r in read]
    similar = Counter(keys)
    lengths = np.array([len(t) for t in texts], dtype=np.float64)
    digits = np.array([len(_DIGIT.findall(t)) for t in texts], dtype=np.float64)
    X[:, 0] = lengths
    X[:, 1] = digits
    X[:, 2] = np.divide(digits, lengths, out=np.zeros(len(nodes)), where=lengths > 0)
    X[:, 3] = sizes
    X[:, 4] = 100.0 * np.array(sizes) / biggest
    X[:, 5] = [r[1] for r in read]
    X[:, 6] = [similar[key] for key in keys]
    folded: list[str | None] | None = None  # each text the title model reads casefolded once for both references
    measured: dict[tuple[str, int], tuple[list[int], np.ndarray]] = {}  # a fifth of pages declare <title> as headline
    for col, reference in ((8, page.title_text), (9, meta_title or "")):
        X[:, col] = EDIT_CAP
        if reference:
            key = (reference.casefold(), len(reference))  # what the distances depend on
            if key not in measured:
                if folded is None:  # None: a row the title model does not read (over MAX_TITLE_LEN)
                    folded = [t.casefold() if len(t) <= MAX_TITLE_LEN else None for t in texts]
                # a text that must lose at least len(reference) characters to become the reference
                # costs at least 4 x len(reference) in deletions alone: EDIT_CAP, without measuring
                longest = len(key[0]) + len(reference)
                near = [r for r, f in enumerate(folded) if f is not None and len(f) < longest]
                measured[key] = near, _edit_distances([cast(str, folded[r]) for r in near], *key)
            near, distances = measured[key]
            X[near, col] = distances
    return X


def with_title_distance(X: np.ndarray, nodes: Sequence[int], title_node: int | None) -> np.ndarray:
    """Copy of X with attribute 8 set: signed text-node distance to the detected title."""
    out = X.copy()
    if title_node is not None:
        out[:, 7] = np.asarray(nodes, dtype=np.float64) - title_node
    else:
        out[:, 7] = 0.0
    return out


def columns(X: np.ndarray, names: Sequence[str]) -> np.ndarray:
    return X[:, [FEATURES.index(n) for n in names]]
