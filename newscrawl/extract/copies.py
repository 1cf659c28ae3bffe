"""Second copies of a block in the body: the same text twice, in two separate elements.

Pages repeat whole blocks that a browser shows once: a layout for narrow screens beside the one
for wide screens (the other hidden by a stylesheet extraction does not have, or by a media query),
server-rendered variants of which a script keeps one, an expandable teaser that holds the article
again, and in forums the quote of an earlier post inside a reply. Gold bodies hold such text once,
so the body keeps the first copy only.

A copy is an element whose body text nodes (two or more, with at least two different texts,
``MIN_COPY_CHARS`` characters in all) read, node for node after whitespace is collapsed, like those
of an element before it that does not contain it. Text that repeats inside one element (the same
paragraph twice in an article, a line that every pricing card lists) is not an element's whole text
twice and stays. Measured on the four development sets (docs/decisions.md, "Body: second copies of a
block"): one-node copies and single lines lose real repeated paragraphs, 100 characters kept the most.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter, defaultdict
from itertools import accumulate
from typing import Any

MIN_COPY_NODES = 2
MIN_COPY_CHARS = 100
# Text nodes looked at in tuples of candidate copies, a page: each node sits in at most one
# candidate per ancestor level, so a deep page with many look-alike blocks is bounded here.
MAX_COMPARED_NODES = 200_000


def without_copies(page: Any, kept: list[int]) -> list[int]:
    """``kept`` (ascending text node indices of the body) without the nodes of later copies."""
    if len(kept) < 2 * MIN_COPY_NODES:
        return kept
    texts = [page.text_nodes[k].text for k in kept]  # whitespace already collapsed by the Page
    # every node of a copy and of its original has a text that occurs twice: the elements above
    # the other nodes are never looked at
    counts = Counter(texts)
    repeated = [k for k, text in zip(kept, texts) if counts[text] > 1]
    if len(repeated) < 2 * MIN_COPY_NODES:
        return kept
    chars = list(accumulate(map(len, texts), initial=0))
    _, _, first_tn, end_tn = page.measures()
    # elements above those nodes, grouped by a key that copies share: node count, characters, first
    # and last text
    groups: defaultdict[tuple[int, int, str, str], set[tuple[int, int]]] = defaultdict(set)
    for el in page.elements_above(repeated):
        i = bisect_left(kept, first_tn[el])
        j = bisect_left(kept, end_tn[el], i)
        if j - i >= MIN_COPY_NODES and chars[j] - chars[i] >= MIN_COPY_CHARS:
            groups[(j - i, chars[j] - chars[i], texts[i], texts[j - 1])].add((i, j))
    candidates = sorted((s for g in groups.values() if len(g) > 1 for s in g), key=lambda s: (s[0], s[0] - s[1]))
    if not candidates:
        return kept
    first_end: dict[tuple[str, ...], int] = {}
    drop = [False] * len(kept)
    budget = MAX_COMPARED_NODES
    for i, j in candidates:
        budget -= j - i
        if budget < 0:
            break
        if any(drop[i:j]):
            continue
        run = tuple(texts[i:j])
        end = first_end.get(run)
        if end is None:
            if len(set(run)) >= MIN_COPY_NODES:
                first_end[run] = j
        elif end <= i:
            drop[i:j] = [True] * (j - i)
    return [k for k, gone in zip(kept, drop) if not gone]
