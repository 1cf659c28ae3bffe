"""The body text (seed 000 §3.4.3): relevant non-title, non-date text nodes from the title to the
end of the relevant content, one paragraph per line (inline runs of one block joined)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from newscrawl.extract.titledate import block_of
from newscrawl.page import Page

_BREAK_TAGS = frozenset({"br", "hr"})


def paragraphs(page: Page, nodes: Iterable[int]) -> list[str]:
    """Join consecutive text runs that sit in the same block; a new block or a <br> starts a line.

    Inline runs are glued with a space only where the source had whitespace, so words split by
    markup ("H<b>ello</b>") stay whole.
    """
    lines: list[str] = []
    current: list[str] = []
    current_block: Any = None
    last = -2
    tns = page.text_nodes
    for k in nodes:
        tn = tns[k]
        block = block_of(tn.container)
        new_line = block is not current_block or k != last + 1 or (tn.is_tail and tn.element.tag in _BREAK_TAGS)
        if new_line:
            if current:
                lines.append("".join(current).strip())
            current = [tn.text]
            current_block = block
        else:
            raw = tn.element.tail if tn.is_tail else tn.element.text
            prev = tns[last]
            prev_raw = prev.element.tail if prev.is_tail else prev.element.text
            glue = (raw and raw[0].isspace()) or (prev_raw and prev_raw[-1].isspace()) or _starts_block(tn, prev)
            current.append((" " if glue else "") + tn.text)
        last = k
    if current:
        lines.append("".join(current).strip())
    return [line for line in lines if line]


def _starts_block(tn: Any, prev: Any) -> bool:
    """An <img>/<br>-like boundary between two runs of one block still separates words."""
    return tn.is_tail and tn.element.tag in ("img", "br", "wbr") or prev.element.tag == "img"
