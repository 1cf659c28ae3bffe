"""The body text (seed 000 §3.4.3): relevant non-title, non-date text nodes from the title to the
end of the relevant content, one paragraph per line (inline runs of one block joined)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from newscrawl.extract.titledate import block_of
from newscrawl.page import Page, collapse

_BREAK_TAGS = frozenset({"br", "hr"})


def paragraphs(page: Page, nodes: Iterable[int]) -> list[str]:
    """Join consecutive text runs that sit in the same block; a new block or a <br> starts a line.

    Inline runs are glued with a space only where the source had whitespace, so words split by
    markup ("H<b>ello</b>") stay whole. Inside ``<pre>`` each line of the source is a line.
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
            prev = tns[last]
            space, broken = _gap(prev, tn, block.tag == "pre")
            if broken:  # a <br> of its own between the runs ("<span>Price:</span><span><br></span>")
                lines.append("".join(current).strip())
                current = [tn.text]
            else:
                current.append((" " if _starts_block(tn, prev) or space else "") + tn.text)
        if block.tag == "pre":  # preformatted text keeps its lines (code, shell sessions, verse)
            raw = ((tn.element.tail if tn.is_tail else tn.element.text) or "").strip()
            if "\n" in raw:
                head, *rest = (collapse(line) for line in raw.split("\n"))
                current[-1] = current[-1][: len(current[-1]) - len(tn.text)] + head
                for line in rest:
                    lines.append("".join(current).strip())
                    current = [line]
        last = k
    if current:
        lines.append("".join(current).strip())
    return [line for line in lines if line]


def _starts_block(tn: Any, prev: Any) -> bool:
    """An <img>/<br>-like boundary between two runs of one block still separates words."""
    return tn.is_tail and tn.element.tag in ("img", "br", "wbr") or prev.element.tag == "img"


_MAX_GAP_STEPS = 64  # markup between two adjacent runs; longer gaps are treated as a word break


def _gap(prev: Any, tn: Any, pre: bool = False) -> tuple[bool, bool]:
    """Whether the source has whitespace, and whether it breaks the line (a ``<br>``/``<hr>``
    element; in ``pre``formatted text also a newline), from the end of run ``prev`` to the start
    of run ``tn``.

    Whitespace-only runs are not text nodes, so ``<span>int</span> <span>x</span>`` (code
    highlighting, inline formatting) keeps its word break only if the skipped runs are read too;
    a break wrapped in an element of its own (``<span><br></span>``) has no text run after it.
    Walks the document-order positions between the two runs: (element, "text") is the element's
    own text before its children, (element, "tail") the text after its end tag.
    """
    prev_raw = prev.element.tail if prev.is_tail else prev.element.text
    space = bool(prev_raw and prev_raw[-1].isspace())
    if pre and prev_raw and "\n" in prev_raw[len(prev_raw.rstrip()) :]:
        return True, True
    target = (tn.element, "tail" if tn.is_tail else "text")
    el = prev.element
    if prev.is_tail:
        node, phase = _after(el)
    elif len(el):
        node, phase = el[0], "text"
    else:
        node, phase = el, "tail"
    for _ in range(_MAX_GAP_STEPS):
        if node is None:
            return True, False
        if phase == "text":
            if (node, phase) == target:
                raw = node.text
                return space or bool(raw and raw[0].isspace()), _leading_newline(raw, pre)
            if node.tag in _BREAK_TAGS:
                return True, True
            raw = node.text if isinstance(node.tag, str) else None  # a comment's text is not page text
        else:
            raw = node.tail
            if (node, phase) == target:
                return space or bool(raw and raw[0].isspace()), _leading_newline(raw, pre)
        if raw and (raw[0].isspace() or raw[-1].isspace()):
            space = True
            if pre and "\n" in raw and not raw.strip():
                return True, True
        if phase == "text":
            node, phase = (node[0], "text") if len(node) else (node, "tail")
        else:
            node, phase = _after(node)
    return True, False


def _leading_newline(raw: str | None, pre: bool) -> bool:
    """In preformatted text, a run whose source starts with a newline starts a line."""
    return pre and raw is not None and "\n" in raw[: len(raw) - len(raw.lstrip())]


def _after(node: Any) -> tuple[Any, str]:
    """The position after ``node``'s tail: its next sibling's text, else its parent's tail."""
    nxt = node.getnext()
    if nxt is not None:
        return nxt, "text"
    return node.getparent(), "tail"
