"""CoreEx (Prasad & Paepcke 2008; seed 002): the node whose text-bearing children hold the article.

Counting rules follow ../shared/research/algorithms.md §4: an ``<a>`` counts as one word and one
link and is not descended; other nodes sum their own words, their children's counts and their
children's tail words. A child joins the set S(N) when its non-link share of words exceeds 0.9;
the node scoring highest on ``0.99·ratio(S) + 0.01·share of page text`` is the main content node.
Ties go to the node higher in the tree, then to the first in document order, so results are
reproducible (the original breaks sibling ties at random).
"""

from __future__ import annotations

import operator
import unicodedata
from collections import Counter
from dataclasses import dataclass
from itertools import compress, repeat
from typing import Any

import numpy as np
from lxml import etree

from newscrawl.classify import BodyResult
from newscrawl.classify.codepoints import FOLDED_CLASSES, UNFOLDED, WORD_CLASSES, code_points
from newscrawl.page import Page

THRESHOLD = 0.9
WEIGHT_RATIO = 0.99
WEIGHT_TEXT = 0.01
# Skipped while counting (with their content; their tails stay), as the reference implementation
# strips them; Page has already removed scripts, styles, iframes, video, buttons and selects.
# ``span`` is kept (see docs/decisions.md).
IGNORED = frozenset({"img", "noscript"})


# ASCII \w is [A-Za-z0-9_]: every other byte becomes a space, NUL (which separates the texts of
# word_counts; lxml text never holds one) is kept, and a word is a run of word bytes
_ASCII_RUN_BYTES = bytes(c if chr(c).isalnum() or c in (0x00, 0x5F) else 0x20 for c in range(128)) + b" " * 128


def words(text: str | None) -> int:
    """Word count with accents folded, as the reference implementation counts (:func:`word_counts`
    of one text)."""
    return int(word_counts([text])[0]) if text else 0


def word_counts(texts: list[str]) -> np.ndarray:
    """:func:`words` of each text. The ASCII texts (most of them) are counted together: joined
    by NUL, mapped to word bytes and spaces, a word is a run start and its text the number of
    NULs before it; a call per text cost CoreEx as much as the rest of its counting."""
    counts = np.zeros(len(texts), dtype=np.int64)
    joined = "\x00".join(texts)
    others: list[int] = []
    if not joined.isascii():
        # the other texts' characters become "?" (a non-word byte, one per character, so the NULs
        # still number the texts); their counts here are overwritten below
        others = list(compress(range(len(texts)), map(operator.not_, map(str.isascii, texts))))
    data = np.frombuffer(joined.encode("ascii", "replace").translate(_ASCII_RUN_BYTES), dtype=np.uint8)
    if data.size:
        word = data > 0x20
        start = word.copy()
        start[1:] &= ~word[:-1]
        counts += np.bincount(np.cumsum(data == 0)[start], minlength=len(texts))
    if others:
        counts[others] = _folded_counts([texts[k] for k in others])
    return counts


def _folded_counts(texts: list[str]) -> np.ndarray:
    """:func:`words` of each non-ASCII text, counted together (one regex scan per text was half
    of CoreEx's time): the NUL-joined texts in NFKD (NUL is a starter: no mark moves across it)
    as code points, or as they are when every character has the words of its NFKD (FOLDED_CLASSES;
    the normalization was a fifth of this count). The reference folds accents by dropping combining
    marks, so a word is a run of \\w characters and marks that holds a \\w, credited to its text."""
    joined = "\x00".join(texts)
    data = code_points(joined)
    classes = FOLDED_CLASSES(data)  # most texts (curly quotes, dashes, accents) have the words of their NFKD
    if (classes == UNFOLDED).any():
        data = code_points(unicodedata.normalize("NFKD", joined))
        classes = WORD_CLASSES(data)
    in_run = classes > 0
    starts = in_run.copy()
    starts[1:] &= ~in_run[:-1]
    run = np.cumsum(starts)  # number of the run each character is in
    word_at = np.flatnonzero(classes == 1)
    first = np.ones(word_at.size, dtype=bool)  # the first \\w of its run
    first[1:] = run[word_at[1:]] != run[word_at[:-1]]
    owner = np.cumsum(data == 0)[word_at[first]]  # NULs before it: its text
    return np.bincount(owner, minlength=len(texts))


@dataclass(frozen=True)
class Counts:
    """CoreEx's counts of every element of a Page, by element index (``page.index(el)``).

    ``counted`` is False inside an ``<a>`` or an ignored element, and for ignored elements
    themselves; the other arrays mean nothing there. set_text and set_links mean nothing on
    ``<a>`` (it has no set)."""

    counted: np.ndarray  # bool
    is_link: np.ndarray  # bool: a counted <a>
    text: np.ndarray  # textCnt
    links: np.ndarray  # linkCnt
    set_text: np.ndarray  # setTextCnt
    set_links: np.ndarray  # setLinkCnt
    in_set: np.ndarray  # bool: the element belongs to its parent's set S
    parent: np.ndarray  # parent index (-1 for the body)
    depth: np.ndarray


@dataclass
class CoreExResult:
    node: Any | None
    score: float
    subset: list[Any]
    text: str | None
    page_words: int

    @property
    def tag(self) -> str:
        """Tag of the main content node ("" when none was found)."""
        return self.node.tag if self.node is not None else ""

    @property
    def subset_tag(self) -> str:
        """Most frequent tag in S (first seen wins a tie)."""
        counts = Counter(el.tag for el in self.subset)
        return counts.most_common(1)[0][0] if counts else ""


def _is_ignored(el: Any) -> bool:
    return el.tag in IGNORED


def _node_text(node: Any, skip_children: set[Any] | None = None) -> str:
    """Text of ``node`` without ignored elements; children in ``skip_children`` keep only their tails."""
    parts: list[str] = []
    walker = etree.iterwalk(node, events=("start", "end"))
    for event, el in walker:
        if event == "start":
            if el is not node and (_is_ignored(el) or (skip_children and el in skip_children)):
                walker.skip_subtree()
                continue
            parts.append(el.text or "")
        elif el is not node:
            parts.append(el.tail or "")
    return " ".join(" ".join(parts).split())


def _element_words(page: Page, parent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`words` of every element's ``.text`` and ``.tail``, by index. The Page's text nodes
    hold them whitespace-collapsed (same words: whitespace is never part of one), so lxml is read
    only where the Page made no text node: texts in hidden subtrees, tails under hidden parents."""
    n = len(page.elements)
    nodes = page.text_nodes
    owner = np.asarray(page.text_owners(), dtype=np.int64)
    is_tail = np.fromiter(map(_IS_TAIL, nodes), dtype=bool, count=len(nodes))
    hidden = np.asarray(page.hidden_flags(), dtype=bool)
    elements = page.elements
    hidden_texts = np.flatnonzero(hidden).tolist()
    hidden_tails = (np.flatnonzero(hidden[parent[1:]]) + 1).tolist()
    # one count for the three groups (a text's count does not depend on the others it is joined with)
    counts = word_counts(
        list(map(_TEXT, nodes))
        + [elements[i].text or "" for i in hidden_texts]
        + [elements[i].tail or "" for i in hidden_tails]
    )
    text_words = np.zeros(n, dtype=np.int64)
    tail_words = np.zeros(n, dtype=np.int64)
    shown = counts[: len(nodes)]
    text_words[owner[~is_tail]] = shown[~is_tail]
    tail_words[owner[is_tail]] = shown[is_tail]
    text_words[hidden_texts] = counts[len(nodes) : len(nodes) + len(hidden_texts)]
    tail_words[hidden_tails] = counts[len(nodes) + len(hidden_texts) :]
    return text_words, tail_words


_TEXT = operator.attrgetter("text")
_IS_TAIL = operator.attrgetter("is_tail")


def count(page: Page) -> Counts:
    """textCnt, linkCnt, S, setTextCnt and setLinkCnt of every element of ``page.body``, as arrays
    over the Page's element list: subtree sums are prefix-sum differences over document order
    (a subtree is a contiguous run there) and set sums are sums over children by parent index,
    so no tree walk and no per-element object is needed."""
    n = len(page.elements)
    parent_l, depth_l, desc_l = page.structure()
    parent = np.asarray(parent_l, dtype=np.int64)
    desc = np.asarray(desc_l, dtype=np.int64)
    tags = page.tags()
    is_a = np.fromiter(map(operator.eq, tags, repeat("a")), dtype=bool, count=n)
    ignored = np.fromiter(map(IGNORED.__contains__, tags), dtype=bool, count=n)
    ignored[0] = False  # the root is counted whatever its tag
    # Elements inside an <a> or an ignored element are never visited; visited ignored elements
    # are not counted but their tails are.
    start = np.arange(n) + 1
    end = start + desc  # a subtree is [i, end[i]); its strict descendants [i + 1, end[i])
    blockers = np.flatnonzero(is_a | ignored)
    cover = np.zeros(n + 1, dtype=np.int64)
    np.add.at(cover, start[blockers], 1)
    np.add.at(cover, end[blockers], -1)
    visited = np.cumsum(cover[:n]) == 0
    counted = visited & ~ignored
    is_link = counted & is_a
    text_words, tail_words = _element_words(page, parent)
    own = np.zeros(n, dtype=np.int64)
    own[is_link] = 1
    texts = np.flatnonzero(counted & ~is_a)
    own[texts] = text_words[texts]
    tails = np.flatnonzero(visited[1:]) + 1  # every visited element but the root adds its tail to its parent
    tail = np.zeros(n, dtype=np.int64)
    tail[tails] = tail_words[tails]
    own_sum = np.concatenate(([0], np.cumsum(own)))
    tail_sum = np.concatenate(([0], np.cumsum(tail)))
    link_sum = np.concatenate(([0], np.cumsum(is_link)))
    idx = np.arange(n)
    text = own_sum[end] - own_sum[idx] + tail_sum[end] - tail_sum[start]
    links = link_sum[end] - link_sum[idx]
    members = np.flatnonzero(counted[1:]) + 1
    members = members[text[members] > 0]
    members = members[(text[members] - links[members]) / text[members] > THRESHOLD]
    in_set = np.zeros(n, dtype=bool)
    in_set[members] = True
    set_text = (
        own
        + np.bincount(parent[tails], weights=tail[tails], minlength=n).astype(np.int64)
        + np.bincount(parent[members], weights=text[members], minlength=n).astype(np.int64)
    )
    set_links = np.bincount(parent[members], weights=links[members], minlength=n).astype(np.int64)
    return Counts(
        counted, is_link, text, links, set_text, set_links, in_set, parent, np.asarray(depth_l, dtype=np.int64)
    )


def coreex(page: Page, *, with_text: bool = True) -> CoreExResult:
    """Find the main content node of the page body and its text (the node with only its S
    children; ``with_text=False`` skips the text, which the page classifier does not read)."""
    c = count(page)
    page_words = int(c.text[0]) if len(c.text) else 0
    candidates = np.flatnonzero(c.counted & ~c.is_link & (c.set_text > 0))
    if not candidates.size:
        return CoreExResult(None, 0.0, [], None, page_words)
    st = c.set_text[candidates].astype(np.float64)
    sl = c.set_links[candidates].astype(np.float64)
    score = WEIGHT_RATIO * (st - sl) / st + WEIGHT_TEXT * st / max(page_words, 1)
    # the highest score; ties to the node higher in the tree, then the first in document order
    top = candidates[score == score.max()]
    top = top[c.depth[top] == c.depth[top].min()]
    best_i = int(top[0])
    best = page.elements[best_i]
    subset = [page.elements[i] for i in np.flatnonzero(c.in_set & (c.parent == best_i))]
    text = None
    if with_text:
        keep = set(subset)
        dropped = {child for child in best if isinstance(child.tag, str) and child not in keep}
        text = _node_text(best, dropped) or None
    return CoreExResult(best, float(score.max()), subset, text, page_words)


def extract(page: Page) -> BodyResult:
    """Registry entry (``method="coreex"``): the main content node with only its S children."""
    result = coreex(page)
    return BodyResult(result.text, result.score)
