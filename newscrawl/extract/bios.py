"""Author bios the page declares: the box that shows one is not the article's text.

Many CMSs describe the article's author in JSON-LD (its ``author`` with a ``description``) and show
the same words in a box under the story: name, role, headshot and the bio. The class names of that
box are often generated (``css-1dsojn8``), so naming rules miss it; the declared text does not.
A body block whose text is one of the declared bios (or opens with one) leaves the body with the
box around it: its ancestors, inside the body's container, that hold at most ``BOX_EXTRA_CHARS``
more text than the bio (the name and role lines). Nothing leaves when the bios would take half the
body's text: on an author's profile page the bio is the content. Measured on all sets
(docs/decisions/body-news.md, "Declared author bios").
"""

from __future__ import annotations

from typing import Any

from newscrawl.extract.titledate import block_of
from newscrawl.page import alnum

# a block of fewer letters and digits than this is too short to be told from a bio by its text
MIN_BIO_CHARS = 40
# how many more characters than the bio the box around it may hold (name, role, "Read more")
BOX_EXTRA_CHARS = 150
# the first letters and digits of a bio that a block opening with it must show
BIO_OPENING_CHARS = 60
# a longer description is no box's bio (and a hostile page's megabytes are not searched block by block)
MAX_BIO_CHARS = 3000
MAX_BIOS = 20  # of the page's declared authors, the first this many


def _is_bio(text: str, bios: list[str]) -> bool:
    """``text`` (letters and digits only) is one of ``bios``, a part of one, or opens with one."""
    return len(text) >= MIN_BIO_CHARS and any(text in bio or text.startswith(bio[:BIO_OPENING_CHARS]) for bio in bios)


def without_declared_bios(page: Any, kept: list[int], container: Any, bios: tuple[str, ...]) -> list[int]:
    """``kept`` (ascending text node indices of the body) minus the boxes showing a declared bio."""
    folded = [bio for bio in map(alnum, bios[:MAX_BIOS]) if MIN_BIO_CHARS <= len(bio) <= MAX_BIO_CHARS]
    if not folded or not kept or not page.has(container):
        return kept
    tns = page.text_nodes
    blocks: dict[Any, list[int]] = {}
    for k in kept:
        blocks.setdefault(block_of(tns[k].container), []).append(k)
    drop: set[int] = set()
    for block, ks in blocks.items():
        if not page.has(block) or not _is_bio(alnum(" ".join(tns[k].text for k in ks)), folded):
            continue
        limit = page.text_len(block) + BOX_EXTRA_CHARS
        box = block
        for ancestor in block.iterancestors():
            if ancestor is container or not page.has(ancestor) or page.text_len(ancestor) > limit:
                break
            box = ancestor
        drop.update(page.text_range(box))
    if not drop or sum(len(tns[k].text) for k in kept if k in drop) * 2 >= sum(len(tns[k].text) for k in kept):
        return kept
    return [k for k in kept if k not in drop]
