"""CoreEx (Prasad & Paepcke 2008; seed 002): the node whose text-bearing children hold the article.

Counting rules follow ../shared/research/algorithms.md §4: an ``<a>`` counts as one word and one
link and is not descended; other nodes sum their own words, their children's counts and their
children's tail words. A child joins the set S(N) when its non-link share of words exceeds 0.9;
the node scoring highest on ``0.99·ratio(S) + 0.01·share of page text`` is the main content node.
Ties go to the node higher in the tree, then to the first in document order, so results are
reproducible (the original breaks sibling ties at random).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any

from lxml import etree

from newscrawl.classify import BodyResult
from newscrawl.page import Page

THRESHOLD = 0.9
WEIGHT_RATIO = 0.99
WEIGHT_TEXT = 0.01
# Skipped while counting (with their content; their tails stay), as the reference implementation
# strips them; Page has already removed scripts, styles, iframes, video, buttons and selects.
# ``span`` is kept (see docs/decisions.md).
IGNORED = frozenset({"img", "noscript"})
_WORD = re.compile(r"\w+")


# ASCII \w is [A-Za-z0-9_]: every other byte becomes a space, so bytes.split() counts the runs in C
_ASCII_WORD_BYTES = bytes(c if chr(c).isalnum() or c == 0x5F else 0x20 for c in range(128)) + b" " * 128


def words(text: str | None) -> int:
    """Word count with accents folded, as the reference implementation counts."""
    if not text:
        return 0
    if text.isascii():
        return len(text.encode("ascii").translate(_ASCII_WORD_BYTES).split())
    text = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    return len(_WORD.findall(text))


@dataclass(slots=True)
class _Counts:
    text: int = 0
    links: int = 0
    set_text: int = 0
    set_links: int = 0
    depth: int = 0
    order: int = 0
    subset: list[Any] | None = None


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


def count(root: Any) -> dict[Any, _Counts]:
    """textCnt, linkCnt, S, setTextCnt and setLinkCnt for every counted node, bottom-up, iteratively."""
    counts: dict[Any, _Counts] = {}
    order = 0
    open_: list[_Counts | None] = []  # counts of the open elements (None: ignored), root first
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        if event == "start":
            if el.tag in IGNORED and el is not root:
                walker.skip_subtree()
                open_.append(None)
                continue
            order += 1
            if el.tag == "a":
                mine = _Counts(text=1, links=1, depth=len(open_) + 1, order=order)
                walker.skip_subtree()
            else:
                own = words(el.text)
                mine = _Counts(text=own, set_text=own, depth=len(open_) + 1, order=order, subset=[])
            counts[el] = mine
            open_.append(mine)
            continue
        mine = open_.pop()
        if not open_:  # the root's end
            break
        parent = open_[-1]
        tail = words(el.tail)
        if mine is None:
            parent.text += tail
            parent.set_text += tail
            continue
        parent.text += tail + mine.text
        parent.set_text += tail
        parent.links += mine.links
        if mine.text > 0 and (mine.text - mine.links) / mine.text > THRESHOLD:
            parent.subset.append(el)  # type: ignore[union-attr]
            parent.set_text += mine.text
            parent.set_links += mine.links
    return counts


def coreex(page: Page) -> CoreExResult:
    """Find the main content node of the page body and its text (the node with only its S children)."""
    root = page.body
    counts = count(root)
    page_words = counts[root].text if root in counts else 0
    best: Any = None
    best_key: tuple[float, int, int] | None = None
    for el, c in counts.items():
        if c.subset is None or c.set_text <= 0:
            continue
        score = WEIGHT_RATIO * (c.set_text - c.set_links) / c.set_text + WEIGHT_TEXT * c.set_text / max(page_words, 1)
        key = (score, -c.depth, -c.order)
        if best_key is None or key > best_key:
            best, best_key = el, key
    if best is None:
        return CoreExResult(None, 0.0, [], None, page_words)
    subset = counts[best].subset or []
    keep = set(subset)
    dropped = {child for child in best if isinstance(child.tag, str) and child not in keep}
    text = _node_text(best, dropped) or None
    return CoreExResult(best, best_key[0], list(subset), text, page_words)


def extract(page: Page) -> BodyResult:
    """Registry entry (``method="coreex"``): the main content node with only its S children."""
    result = coreex(page)
    return BodyResult(result.text, result.score)
