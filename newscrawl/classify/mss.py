"""Article body by Maximum Scoring Subsequence over text segments (Luo et al. 2009; seeds 001, 002).

Text leaves are grouped under their nearest line-break (block-display) node into text segments;
each segment scores ``F(s) * length(s)``, where F is +1 when the segment's text mostly has the
document's most common font size and colour and little of it is link text, else -1. The
Ruzzo–Tompa algorithm lists every maximal scoring subsequence in linear time; the highest one is
the body, and its score is a page-classifier feature (long uniform text runs mean articles).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from newscrawl.classify import BodyResult
from newscrawl.page import Page, collapse

P_SIZE = 0.7
P_COLOR = 0.2
P_LINK = 0.5
_INLINE_DISPLAYS = frozenset(
    {"inline", "inline-block", "inline-flex", "inline-grid", "inline-table", "contents", "ruby"}
)


@dataclass
class Leaf:
    """One text leaf (or single-tag node) with the style facts MSS scores on."""

    owner: Any
    text: str
    font_size: float = 0.0
    color: str = ""
    in_link: bool = False

    @property
    def single_tag(self) -> bool:
        return not self.text


@dataclass
class Segment:
    """Successive text leaves sharing one nearest line-break node."""

    node: Any
    leaves: list[Leaf] = field(default_factory=list)
    score: float = 0.0

    @property
    def length(self) -> int:
        return sum(len(leaf.text) for leaf in self.leaves)

    @property
    def text(self) -> str:
        return " ".join(leaf.text for leaf in self.leaves)


@dataclass
class MSSResult:
    segments: list[Segment]
    maximal: list[tuple[int, int, float]]  # (first segment, last segment + 1, score)
    best: tuple[int, int, float] | None

    @property
    def score(self) -> float:
        """The highest subsequence score (0 when the page has no positive segment)."""
        return self.best[2] if self.best else 0.0

    @property
    def body(self) -> str | None:
        if not self.best:
            return None
        start, end, _ = self.best
        return "\n".join(seg.text for seg in self.segments[start:end])


def maximal_subsequences(scores: list[float]) -> list[tuple[int, int, float]]:
    """All maximal scoring subsequences, as Ruzzo & Tompa (1999) and seed 002 describe them.

    Each list entry keeps L (cumulative total before its first score), R (cumulative total
    after its last) and a pointer to the entry that step 1 would find for it, so the right-to-left
    search skips entries already known to fail and the whole run is linear.
    """
    starts: list[int] = []
    ends: list[int] = []
    lows: list[float] = []
    highs: list[float] = []
    back: list[int] = []  # index of the nearest entry to the left with a smaller L, or -1
    total = 0.0
    for i, value in enumerate(scores):
        before, total = total, total + value
        if value <= 0:
            continue
        start, low, high = i, before, total
        while True:
            # step 1: the maximum j with L_j < L_k, searched right to left
            j = len(lows) - 1
            while j >= 0 and lows[j] >= low:
                j = back[j]
            if j < 0 or highs[j] >= high:
                # steps 2 and 3: add I_k to the end of the list
                starts.append(start)
                ends.append(i + 1)
                lows.append(low)
                highs.append(high)
                back.append(j)
                break
            # step 4: extend I_k left over I_j, delete I_j..I_{k-1}, reconsider
            start, low = starts[j], lows[j]
            del starts[j:], ends[j:], lows[j:], highs[j:], back[j:]
    return [(s, e, h - lo) for s, e, h, lo in zip(starts, ends, highs, lows)]


def _is_line_break(page: Page, el: Any) -> bool:
    return page.style(el).display not in _INLINE_DISPLAYS


def text_leaves(page: Page) -> list[Leaf]:
    """Text leaves and single-tag leaf elements of the visible body, in document order.

    Markup-hidden subtrees are skipped whole; CSS visibility (which a computed style inherits) is
    checked only on elements that own text, so styles are computed for as few nodes as possible.
    """
    leaves: list[Leaf] = []
    links = 0

    def add(owner: Any, raw: str | None) -> None:
        text = collapse(raw or "")
        if text and page.style(owner).visible:
            leaves.append(Leaf(owner, text, in_link=links > 0))

    walker = etree.iterwalk(page.body, events=("start", "end"))
    for event, el in walker:
        if event == "start":
            if page.is_hidden(el):
                walker.skip_subtree()
                continue
            if el.tag == "a":
                links += 1
            if len(el) == 0 and not (el.text or "").strip():
                leaves.append(Leaf(el, ""))
            else:
                add(el, el.text)
            continue
        if el is page.body:
            break
        if el.tag == "a" and not page.is_hidden(el):
            links -= 1
        add(el.getparent(), el.tail)
    return leaves


def segments(page: Page) -> list[Segment]:
    """Steps 1–3 of the grouping: leaf sequence, group by nearest line-break node, drop single tags."""
    nearest: dict[Any, Any] = {}

    def line_break_node(el: Any) -> Any:
        chain = []
        node = el
        while node is not None and node not in nearest:
            if _is_line_break(page, node):
                break
            chain.append(node)
            node = node.getparent()
        found = nearest.get(node, node) if node is not None else page.body
        for n in chain:
            nearest[n] = found
        if node is not None:
            nearest[node] = found
        return found

    groups: list[Segment] = []
    for leaf in text_leaves(page):
        node = line_break_node(leaf.owner)
        if groups and groups[-1].node is node:
            groups[-1].leaves.append(leaf)
        else:
            groups.append(Segment(node, [leaf]))
    result = []
    for group in groups:
        group.leaves = [leaf for leaf in group.leaves if not leaf.single_tag]
        if group.leaves:
            result.append(group)
    return result


def score_segments(page: Page, segs: list[Segment]) -> None:
    """Set each segment's score F(s)·length(s) against the page's dominant font size and colour."""
    sizes: Counter[float] = Counter()
    colors: Counter[str] = Counter()
    for seg in segs:
        for leaf in seg.leaves:
            style = page.style(leaf.owner)
            leaf.font_size = round(float(style.font_size or 0.0), 2)
            leaf.color = str(style.color or "").lower()
            sizes[leaf.font_size] += len(leaf.text)
            colors[leaf.color] += len(leaf.text)
    if not sizes:
        return
    size = sizes.most_common(1)[0][0]
    color = colors.most_common(1)[0][0]
    for seg in segs:
        length = seg.length
        same_size = sum(len(leaf.text) for leaf in seg.leaves if leaf.font_size == size)
        same_color = sum(len(leaf.text) for leaf in seg.leaves if leaf.color == color)
        linked = sum(len(leaf.text) for leaf in seg.leaves if leaf.in_link)
        good = same_size >= P_SIZE * length and same_color >= P_COLOR * length and linked <= P_LINK * length
        seg.score = float(length if good else -length)


def mss(page: Page) -> MSSResult:
    """Run the three parts of the algorithm on a parsed page."""
    segs = segments(page)
    score_segments(page, segs)
    maximal = maximal_subsequences([seg.score for seg in segs])
    best = None
    for item in maximal:
        if best is None or item[2] > best[2]:
            best = item
    return MSSResult(segs, maximal, best)


def extract(page: Page) -> BodyResult:
    """Registry entry (``method="mss"``): the maximum scoring subsequence's text."""
    result = mss(page)
    return BodyResult(result.body, result.score)
