"""A learned site template: the key page's template nodes, portable to other pages of the site.

The template keeps, for each template node of its key page, the features the equality
probability compares (tag, id, classes, attributes, own-text key, child count, position), as a
tree. :meth:`Template.apply` maps that tree top-down onto a new page's ``<body>`` exactly as two
pages are mapped, so the template works on pages it never saw. JSON only (no pickle), so the
disk and Redis caches can hold it.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from newscrawl.page import Page
from newscrawl.template.etdm import PageSkeleton, Params, Skeleton, etdm

FORMAT_VERSION = 2


def body_of(root: Any) -> Any:
    """The ``<body>`` of an lxml document (the root itself when there is none)."""
    if isinstance(root.tag, str) and root.tag.lower() == "body":
        return root
    found = root.find(".//body")
    return found if found is not None else root


@dataclass
class Template:
    """Template nodes of a key page: ``nodes`` rows are
    ``[parent, tag, id, classes, attrs, text_key, nchild, index, nsib, tag_position]`` in
    pre-order (``attrs`` as ``[name, crc32(value)]`` pairs); ``root_path`` is the XPath of the
    key page's ``<body>``."""

    nodes: list[list[Any]]
    root_path: str = "/html[1]/body[1]"
    params: Params = field(default_factory=Params)
    key_url: str | None = None
    site: str | None = None
    pages: list[str] = field(default_factory=list)  # URLs (or ids) of the pages it was mapped with
    key_nodes: int = 0  # element count of the key page's body
    created: float = field(default_factory=time.time)
    id: str = ""

    def __post_init__(self) -> None:
        if not self.id:
            digest = hashlib.blake2b(json.dumps(self.nodes, separators=(",", ":")).encode(), digest_size=8)
            self.id = digest.hexdigest()
        self._skeleton: Skeleton | None = None

    @property
    def size(self) -> int:
        return len(self.nodes)

    @classmethod
    def from_votes(cls, key: Skeleton, votes: list[int], t: int, params: Params, **meta: Any) -> Template:
        """Template of ``key``: the root and every node mapped in at least ``t`` pages (votes are
        top-down closed, since a node is only mapped where its parent is)."""
        keep = [i for i in range(len(key)) if i == 0 or votes[i] >= t]
        new_index = {old: k for k, old in enumerate(keep)}
        tag_pos = key.tag_positions()
        nodes = []
        for i in keep:
            parent = new_index.get(key.parent[i], -1)
            nodes.append(
                [
                    parent,
                    key.tag[i],
                    key.id[i],
                    sorted(key.classes[i]),
                    sorted([k, v] for k, v in key.attrs[i]),
                    key.text[i],
                    key.nchild[i],
                    key.index[i],
                    key.nsib[i],
                    tag_pos[i],
                ]
            )
        return cls(nodes=nodes, root_path=key.root_path(), params=params, key_nodes=len(key), **meta)

    @property
    def paths(self) -> list[str]:
        """XPath of every template node on the key page, in pre-order."""
        out: list[str] = []
        for parent, tag, *_, tag_pos in self.nodes:
            out.append(self.root_path if parent < 0 else f"{out[parent]}/{tag}[{tag_pos}]")
        return out

    # --- use -------------------------------------------------------------------------------------
    def skeleton(self) -> Skeleton:
        if self._skeleton is None:
            sk = Skeleton()
            for parent, tag, id_, classes, attrs, text, nchild, index, nsib, _ in self.nodes:
                sk.add(
                    parent, tag, id_, frozenset(classes), frozenset((k, v) for k, v in attrs), text, nchild, index, nsib
                )
            self._skeleton = sk
        return self._skeleton

    def match(self, root: Any, skeleton: Skeleton | None = None) -> tuple[Skeleton, set[int]]:
        """Map the template onto a page (an lxml root, or a :class:`~newscrawl.page.Page` whose
        element list the page's skeleton is built from): the page's skeleton and its template node
        indices. ``skeleton``: the page's skeleton from an earlier match of another template on the
        same, unchanged page (its nodes read then are not read again)."""
        if skeleton is None:
            skeleton = PageSkeleton.from_page(root) if isinstance(root, Page) else Skeleton.from_element(body_of(root))
        mapping = etdm(self.skeleton(), skeleton, self.params)
        return skeleton, set(mapping.values())

    def apply(self, root: Any) -> int:
        """Remove this template from a page of the site: every maximal subtree whose nodes are all
        template nodes is dropped (tails kept). Returns the number of elements removed."""
        page, marked = self.match(root)
        return remove_marked(page, marked)

    # --- JSON ------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "version": FORMAT_VERSION,
            "id": self.id,
            "key_url": self.key_url,
            "site": self.site,
            "pages": self.pages,
            "key_nodes": self.key_nodes,
            "created": self.created,
            "params": self.params.to_dict(),
            "root_path": self.root_path,
            "nodes": self.nodes,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Template:
        if data.get("version") != FORMAT_VERSION:
            raise ValueError(f"unsupported template format {data.get('version')!r}")
        return cls(
            nodes=data["nodes"],
            root_path=data["root_path"],
            params=Params.from_dict(data["params"]),
            key_url=data.get("key_url"),
            site=data.get("site"),
            pages=list(data.get("pages", [])),
            key_nodes=int(data.get("key_nodes", 0)),
            created=float(data["created"]),
            id=data["id"],
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> Template:
        return cls.from_dict(json.loads(text))


def whole_subtrees(page: Skeleton, marked: set[int]) -> list[int]:
    """Roots of the maximal subtrees of ``page`` whose nodes are all marked (never the root)."""
    whole = [False] * len(page)
    for i in range(len(page) - 1, -1, -1):  # pre-order reversed: children before parents
        whole[i] = i in marked and all(whole[c] for c in page.children[i])
    whole[0] = False  # the body stays, even when all of it is template
    return [i for i in range(1, len(page)) if whole[i] and not whole[page.parent[i]]]


def remove_marked(page: Skeleton, marked: set[int]) -> int:
    """Drop the maximal all-marked subtrees of ``page`` (tails kept); elements removed."""
    roots = whole_subtrees(page, marked)
    removed = sum(sum(1 for _ in page.elements[i].iter()) for i in roots)
    for i in roots:
        page.elements[i].drop_tree()
    return removed
