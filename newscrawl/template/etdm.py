"""Equality probability (seed 003, Def. 3.2.2) and the exact top-down mapping (Def. 3.3.1).

Trees are flattened once into a :class:`Skeleton` (parallel lists of per-node features), so the
mapper compares small tuples instead of walking lxml objects. Child lists are matched per tag,
each child only against same-tag children near its own rank (from the left and from the right),
which keeps the work linear in practice instead of all-pairs; the accepted pairs follow
Def. 3.3.1 (best pair first, then recursively before/after it) when ``ordered`` is on.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

# Elements invisible to the mapper, mirroring what newscrawl.page.Page drops from its tree, so a
# skeleton is the same whether built from a Page or from a raw lxml parse.
SKIP_TAGS = frozenset(
    (
        "script",
        "style",
        "noscript",
        "template",
        "svg",
        "math",
        "select",
        "option",
        "textarea",
        "button",
        "iframe",
        "object",
        "embed",
        "canvas",
        "video",
        "audio",
        "map",
        "frameset",
        "frame",
    )
)
NO_TEXT = -1
_EMPTY: frozenset = frozenset()
_RANK_WINDOW = 8  # same-tag children compared around each child's rank (left and right)
_ALL_PAIRS = 256  # below this many same-tag pairs, compare them all
EQUALITY_MEMO = 20_000  # equality probabilities a skeleton remembers (Skeleton.equalities)


@dataclass(frozen=True)
class Params:
    """Mapping parameters (seed 003 §5.2.3; values chosen in docs/decisions.md)."""

    w_classes: float = 0.5
    w_position: float = 0.2
    w_attributes: float = 0.2
    w_children: float = 0.1
    not_classes: float = 0.9
    not_attributes: float = 0.75
    not_children: float = 1.0
    threshold: float = 0.8
    ordered: bool = True  # activatePosition: mapped children keep their order
    text_mismatch: float = 0.0  # factor when the nodes' own texts differ (1.0 = the seed: text ignored)
    # for two nodes sharing a class: a class one has and the other lacks while one of the other's
    # siblings has it (a "current"/"active" marker moving along a menu from page to page) is left
    # out of P_c
    moved_classes: bool = True

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Params:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


def text_key(text: str) -> int:
    """Stable key of a whitespace-collapsed text (crc32; NO_TEXT when empty)."""
    if not text or text.isspace():
        return NO_TEXT
    text = " ".join(text.split())
    return zlib.crc32(text.encode("utf-8", "surrogatepass")) if text else NO_TEXT


def _value_key(value: str) -> int:
    """Attribute values are compared, never read: a crc32 keeps long ones (inline JSON, styles)
    cheap to hash, sort and store."""
    return zlib.crc32(value.encode("utf-8", "surrogatepass"))


def _features(el: Any) -> tuple[str, frozenset[str], frozenset[tuple[str, int]], int]:
    """The compared features of one element: id, classes, other attributes (name, value key) and
    the key of its own text (its text and its children's tails, whatever their kind)."""
    text = el.text or ""
    if len(el):
        text += "".join(c.tail or "" for c in el)
    id_, classes, attrs = "", _EMPTY, _EMPTY
    items = el.items()
    if items:
        rest = []
        for name, value in items:
            if name == "class":
                classes = frozenset(value.split())
            elif name == "id":
                id_ = value.strip()
            else:
                rest.append((name, _value_key(value)))
        if rest:
            attrs = frozenset(rest)
    return id_, classes, attrs, text_key(text)


class Skeleton:
    """A tree's nodes in pre-order with the features Def. 3.2.1 uses.

    ``nchild`` and ``nsib`` are kept apart from ``children`` because a template keeps only some
    of its key page's children but must compare counts and positions as the key page had them.
    """

    __slots__ = (
        "elements",
        "tag",
        "id",
        "classes",
        "attrs",
        "attr_names",
        "text",
        "nchild",
        "index",
        "nsib",
        "parent",
        "children",
        "sig",
        "_kid_classes",
        "_shape",
        "_sizes",
        "_equalities",
    )

    def __init__(self) -> None:
        self.elements: list[Any] = []
        self.tag: list[str] = []
        self.id: list[str] = []
        self.classes: list[frozenset[str]] = []
        self.attrs: list[frozenset[tuple[str, int]]] = []
        self.attr_names: list[frozenset[str]] = []
        self.text: list[int] = []
        self.nchild: list[int] = []
        self.index: list[int] = []
        self.nsib: list[int] = []
        self.parent: list[int] = []
        self.children: list[list[int]] = []
        self.sig: list[int] = []  # in-process hash of the position-free features (fast equality)
        self._kid_classes: dict[int, frozenset[str]] = {}
        self._shape: list[int] | None = None
        self._sizes: list[int] | None = None
        self._equalities: dict[Params, dict[Any, float]] = {}

    def __len__(self) -> int:
        return len(self.tag)

    def add(
        self,
        parent: int,
        tag: str,
        id_: str,
        classes: frozenset[str],
        attrs: frozenset[tuple[str, int]],
        text: int,
        nchild: int,
        index: int,
        nsib: int,
        element: Any = None,
    ) -> int:
        i = len(self.tag)
        self.elements.append(element)
        self.tag.append(tag)
        self.id.append(id_)
        self.classes.append(classes)
        self.attrs.append(attrs)
        self.attr_names.append(frozenset(name for name, _ in attrs) if attrs else _EMPTY)
        self.text.append(text)
        self.nchild.append(nchild)
        self.index.append(index)
        self.nsib.append(nsib)
        self.parent.append(parent)
        self.children.append([])
        self.sig.append(hash((tag, id_, classes, attrs, text, nchild)))
        if parent >= 0:
            self.children[parent].append(i)
        return i

    @classmethod
    def from_element(cls, root: Any) -> Skeleton:
        """Flatten ``root``'s subtree (iteratively) skipping SKIP_TAGS and non-elements."""
        sk = cls()
        stack: list[tuple[Any, int, int, int]] = [(root, -1, 0, 1)]
        while stack:
            el, parent, index, nsib = stack.pop()
            kids = [c for c in el if isinstance(c.tag, str) and c.tag.lower() not in SKIP_TAGS]
            id_, classes, attrs, text = _features(el)
            i = sk.add(parent, el.tag.lower(), id_, classes, attrs, text, len(kids), index, nsib, el)
            for k in range(len(kids) - 1, -1, -1):
                stack.append((kids[k], i, k, len(kids)))
        return sk

    def expand(self, node: int) -> None:
        """Make the features of ``node``'s children readable (all are, but in a PageSkeleton)."""

    def size(self, node: int) -> int:
        """Nodes in ``node``'s subtree, itself included."""
        if self._sizes is None:
            sizes = [1] * len(self)
            for i in range(len(self) - 1, 0, -1):
                sizes[self.parent[i]] += sizes[i]
            self._sizes = sizes
        return self._sizes[node]

    def shape(self, node: int) -> int:
        """A hash of ``node``'s whole subtree (see :meth:`shapes`)."""
        return self.shapes()[node]

    def shapes(self) -> list[int]:
        """Per node, a hash of its whole subtree (features and child lists, in order): two nodes
        with equal shapes have identical subtrees (bottom-up, computed once)."""
        if self._shape is None:
            shape = [0] * len(self)
            for i in range(len(self) - 1, -1, -1):
                shape[i] = hash((self.sig[i], self.index[i], self.nsib[i], tuple(shape[c] for c in self.children[i])))
            self._shape = shape
        return self._shape

    def equalities(self, p: Params) -> dict[Any, float]:
        """Equality probabilities of this skeleton's nodes with other skeletons' nodes, keyed by the
        node and the other node's features (see map_children): a template meets the same menus and
        blocks on every page of its site. Forgotten at EQUALITY_MEMO entries."""
        found = self._equalities.get(p)
        if found is None or len(found) >= EQUALITY_MEMO:
            found = self._equalities[p] = {}
        return found

    def kid_classes(self, parent: int) -> frozenset[str]:
        """Every class on a child of ``parent`` (cached: asked for each compared sibling)."""
        found = self._kid_classes.get(parent)
        if found is None:
            found = self._kid_classes[parent] = frozenset().union(*(self.classes[c] for c in self.children[parent]))
        return found

    def root_path(self) -> str:
        """XPath of the root element in its document (same-tag sibling positions, 1-based)."""
        steps = []
        el = self.elements[0]
        while el is not None and isinstance(el.tag, str):
            parent = el.getparent()
            same = [c for c in parent if c.tag == el.tag] if parent is not None else [el]
            steps.append(f"{el.tag.lower()}[{same.index(el) + 1}]")
            el = parent
        return "/" + "/".join(reversed(steps))

    def tag_positions(self) -> list[int]:
        """Each node's 1-based position among its same-tag siblings: its XPath step index
        (skipped elements have other tags, so this agrees with XPath on the full tree)."""
        pos = [1] * len(self)
        for kids in self.children:
            seen: dict[str, int] = {}
            for c in kids:
                seen[self.tag[c]] = pos[c] = seen.get(self.tag[c], 0) + 1
        return pos


class PageSkeleton(Skeleton):
    """The skeleton of a parsed page's body (a :class:`newscrawl.page.Page`), with the same nodes,
    order and features as :meth:`Skeleton.from_element` on it, built for one template mapping.

    Its structure comes from the Page's element list (tags, parent indices, descendant counts:
    the tree is not walked again), and a node's id, classes, attributes and text are read from
    lxml only when the mapping reaches it: a top-down mapping compares the children of mapped
    nodes only (about half of a page's nodes), and needs a subtree's shape only where its size
    is that of the template node it is mapped to."""

    __slots__ = ()

    @classmethod
    def from_page(cls, page: Any) -> PageSkeleton:
        """The skeleton of ``page.body``; the tree must be as the Page measured it."""
        elements, tags = page.elements, page.tags()
        parents, _depth, desc = page.structure()
        names: dict[Any, str | None] = {}  # page tag -> node tag, None for skipped subtrees
        for tag in set(tags):
            name = tag.lower() if isinstance(tag, str) else None
            names[tag] = None if name is None or name in SKIP_TAGS else name
        sk = cls()
        node_of = [-1] * len(tags)  # element index -> node
        node_of[0] = 0
        node_tag, node_el, node_parent, node_index = [tags[0].lower()], [elements[0]], [-1], [0]
        children: list[list[int]] = [[]]
        add_tag, add_el, add_parent, add_index, add_children = (
            node_tag.append,
            node_el.append,
            node_parent.append,
            node_index.append,
            children.append,
        )
        i, end = 1, len(tags)
        while i < end:
            name = names[tags[i]]
            if name is None:  # a skipped element: its descendants are the next desc[i] elements
                i += desc[i] + 1
                continue
            parent = node_of[parents[i]]
            node_of[i] = k = len(node_tag)
            kids = children[parent]
            add_index(len(kids))
            kids.append(k)
            add_tag(name)
            add_el(elements[i])
            add_parent(parent)
            add_children([])
            i += 1
        nchild = [len(kids) for kids in children]
        sk.elements, sk.tag, sk.parent, sk.index, sk.children, sk.nchild = (
            node_el,
            node_tag,
            node_parent,
            node_index,
            children,
            nchild,
        )
        sk.nsib = [1, *(nchild[p] for p in node_parent[1:])]
        unread: list[Any] = [None] * len(node_tag)
        sk.id, sk.classes, sk.attrs, sk.attr_names, sk.text, sk.sig = (
            unread,
            unread[:],
            unread[:],
            unread[:],
            unread[:],
            unread[:],
        )
        return sk

    def _read(self, node: int) -> None:
        id_, classes, attrs, text = _features(self.elements[node])
        self.id[node], self.classes[node], self.attrs[node], self.text[node] = id_, classes, attrs, text
        self.attr_names[node] = frozenset(name for name, _ in attrs) if attrs else _EMPTY
        self.sig[node] = hash((self.tag[node], id_, classes, attrs, text, self.nchild[node]))

    def expand(self, node: int) -> None:
        sig = self.sig
        for c in self.children[node]:
            if sig[c] is None:
                self._read(c)

    def shape(self, node: int) -> int:
        if self._shape is None:
            self._shape = [None] * len(self)  # type: ignore[list-item]
        shape = self._shape
        found = shape[node]
        if found is None:
            end = node + self.size(node)  # pre-order: the subtree is the nodes node .. end - 1
            sig, index, nsib, children = self.sig, self.index, self.nsib, self.children
            for i in range(end - 1, node - 1, -1):
                if shape[i] is None:
                    if sig[i] is None:
                        self._read(i)
                    shape[i] = hash((sig[i], index[i], nsib[i], tuple(shape[c] for c in children[i])))
            found = shape[node]
        return found

    def shapes(self) -> list[int]:
        self.shape(0)
        assert self._shape is not None
        return self._shape


def equality(a: Skeleton, i: int, b: Skeleton, j: int, p: Params) -> float:
    """Def. 3.2.2: the probability that node ``i`` of ``a`` and node ``j`` of ``b`` are equal."""
    if a.tag[i] != b.tag[j]:
        return 0.0
    factor = 1.0 if a.text[i] == b.text[j] else p.text_mismatch
    if a.id[i] and a.id[i] == b.id[j]:
        return factor
    ca, cb = a.classes[i], b.classes[j]
    if p.moved_classes and ca != cb and i and j and ca & cb:
        moved = ((ca - cb) & b.kid_classes(b.parent[j])) | ((cb - ca) & a.kid_classes(a.parent[i]))
        if moved:
            ca, cb = ca - moved, cb - moved
    pc = p.not_classes if not ca and not cb else len(ca & cb) / len(ca | cb)
    na, nb = a.attr_names[i], b.attr_names[j]
    pa = p.not_attributes if not na and not nb else len(a.attrs[i] & b.attrs[j]) / len(na | nb)
    ka, kb = a.nchild[i], b.nchild[j]
    pch = p.not_children if ka == 0 and kb == 0 else min(ka, kb) / max(ka, kb)
    pp = position_probability(a.index[i], a.nsib[i], b.index[j], b.nsib[j])
    return factor * (p.w_classes * pc + p.w_attributes * pa + p.w_children * pch + p.w_position * pp)


def _identical(a: Skeleton, i: int, p: Params) -> float:
    """Def. 3.2.2 for two nodes with the same features and position (no pairwise work)."""
    if a.id[i]:
        return 1.0
    return (
        p.w_classes * (1.0 if a.classes[i] else p.not_classes)
        + p.w_attributes * (1.0 if a.attr_names[i] else p.not_attributes)
        + p.w_children * (1.0 if a.nchild[i] else p.not_children)
        + p.w_position
    )


def position_probability(i: int, c: int, i2: int, c2: int) -> float:
    """P_p of Def. 3.2.2 for 0-based child indices ``i``/``i2`` among ``c``/``c2`` siblings."""
    j, j2 = c - i, c2 - i2  # positions from the right (1-based); lefts are i+1, i2+1
    low = min(c, c2)
    if c2 == c:
        shift = abs(i - i2)
    elif c2 > c:
        shift = max(0, i - i2, j - j2)
    else:
        shift = max(0, i2 - i, j2 - j)
    return max(0.0, 1.0 - shift / low)


def map_children(a: Skeleton, pa: int, b: Skeleton, pb: int, p: Params) -> list[tuple[int, int]]:
    """Def. 3.3.1 on the child lists of ``pa`` and ``pb``: pairs with probability >= threshold,
    best first; with ``p.ordered`` a pair must not cross an accepted one (before/after split)."""
    ka, kb = a.children[pa], b.children[pb]
    if not ka or not kb:
        return []
    threshold = p.threshold
    # when differing own texts can never reach the threshold, only same-tag same-text children
    # are candidates: content paragraphs (unique texts) then cost nothing
    strict_text = p.text_mismatch * (p.w_classes + p.w_attributes + p.w_children + p.w_position) < threshold
    text_a, text_b, tag_a, tag_b = a.text, b.text, a.tag, b.tag
    groups_b: dict[Any, list[int]] = {}
    groups_a: dict[Any, list[int]] = {}
    if strict_text:
        for y in kb:
            groups_b.setdefault((tag_b[y], text_b[y]), []).append(y)
        for x in ka:
            groups_a.setdefault((tag_a[x], text_a[x]), []).append(x)
    else:
        for y in kb:
            groups_b.setdefault(tag_b[y], []).append(y)
        for x in ka:
            groups_a.setdefault(tag_a[x], []).append(x)
    scored: list[tuple[float, int, int, int, int]] = []
    sig_a, sig_b, index_a, index_b, nsib_a, nsib_b = a.sig, b.sig, a.index, b.index, a.nsib, b.nsib
    # equality() of (x, y) reads x's features and its siblings' classes (fixed in a), y's features
    # and position, and the classes of y's siblings (the children of pb): those are the memo's key
    memo, kids_b = a.equalities(p), b.kid_classes(pb)
    id_b, classes_b, attrs_b, nchild_b = b.id, b.classes, b.attrs, b.nchild
    features_b: dict[int, tuple[Any, ...]] = {}
    for group, xs in groups_a.items():
        ys = groups_b.get(group)
        if not ys:
            continue
        n, m = len(xs), len(ys)
        candidates: Iterator[tuple[int, int]]
        if n * m <= _ALL_PAIRS:
            candidates = ((r, s) for r in range(n) for s in range(m))
        else:
            candidates = _near_ranks(n, m)
        for r, s in candidates:
            x, y = xs[r], ys[s]
            if sig_a[x] == sig_b[y] and index_a[x] == index_b[y] and nsib_a[x] == nsib_b[y]:
                score = _identical(a, x, p)  # same features and position: the common template case
            else:
                key = features_b.get(y)
                if key is None:
                    key = features_b[y] = (
                        tag_b[y],
                        text_b[y],
                        id_b[y],
                        classes_b[y],
                        attrs_b[y],
                        nchild_b[y],
                        index_b[y],
                        nsib_b[y],
                    )
                found = memo.get((x, key, kids_b))
                if found is None:
                    found = memo[x, key, kids_b] = equality(a, x, b, y, p)
                score = found
            if score >= threshold:
                scored.append((-score, abs(a.index[x] - b.index[y]), a.index[x], x, y))
    if not scored:
        return []
    scored.sort()
    used_a: set[int] = set()
    used_b: set[int] = set()
    result: list[tuple[int, int]] = []
    chain: list[tuple[int, int]] = []  # accepted (index in a, index in b), sorted
    for _, _, _, x, y in scored:
        if x in used_a or y in used_b:
            continue
        if p.ordered:
            ix, iy = a.index[x], b.index[y]
            k = _bisect(chain, ix)
            if (k > 0 and chain[k - 1][1] >= iy) or (k < len(chain) and chain[k][1] <= iy):
                continue
            chain.insert(k, (ix, iy))
        used_a.add(x)
        used_b.add(y)
        result.append((x, y))
    return result


def _near_ranks(n: int, m: int) -> Iterator[tuple[int, int]]:
    """Rank pairs (r, s) of two same-tag lists that sit near each other from the left or right
    (a pair in both windows is produced twice; the assignment ignores the repeat)."""
    shift = m - n
    for r in range(n):
        yield from ((r, s) for s in range(max(0, r - _RANK_WINDOW), min(m, r + _RANK_WINDOW + 1)))
        if shift:
            rr = r + shift
            yield from ((r, s) for s in range(max(0, rr - _RANK_WINDOW), min(m, rr + _RANK_WINDOW + 1)))


def _bisect(chain: list[tuple[int, int]], ix: int) -> int:
    lo, hi = 0, len(chain)
    while lo < hi:
        mid = (lo + hi) // 2
        if chain[mid][0] < ix:
            lo = mid + 1
        else:
            hi = mid
    return lo


def etdm(a: Skeleton, b: Skeleton, p: Params) -> dict[int, int]:
    """The exact top-down mapping of ``a`` onto ``b`` (node of a -> node of b), roots included.

    The roots (both documents' ``<body>``) are mapped when their tags agree; below them a child
    pair is mapped only if its parents are (top-down) and it passes Def. 3.3.1.
    """
    if not len(a) or not len(b) or a.tag[0] != b.tag[0]:
        return {}
    mapping = {0: 0}
    stack = [(0, 0)]
    while stack:
        x, y = stack.pop()
        if x and a.size(x) == b.size(y) and a.shape(x) == b.shape(y):  # equal shapes have equal sizes
            _map_identical(a, x, b, y, p, mapping)
            continue
        a.expand(x)
        b.expand(y)
        for cx, cy in map_children(a, x, b, y, p):
            mapping[cx] = cy
            stack.append((cx, cy))
    return mapping


def _map_identical(a: Skeleton, x: int, b: Skeleton, y: int, p: Params, mapping: dict[int, int]) -> None:
    """Below two mapped nodes with identical subtrees, Def. 3.3.1 pairs each child with the child
    at its own rank: that pair has the best score either child can get (all features equal,
    position probability 1) and the smallest rank distance, so best-first takes it before any
    rival; it is kept when that score reaches the threshold (as map_children would)."""
    stack = [(x, y)]
    while stack:
        u, v = stack.pop()
        for cu, cv in zip(a.children[u], b.children[v]):
            if _identical(a, cu, p) >= p.threshold:
                mapping[cu] = cv
                stack.append((cu, cv))


def vote(key: Skeleton, others: Sequence[Skeleton], p: Params) -> tuple[list[int], list[dict[int, int]]]:
    """Algorithm 3 with voting: per key-page node, in how many of ``others`` it is mapped."""
    votes = [0] * len(key)
    mappings = []
    for other in others:
        m = etdm(key, other, p)
        mappings.append(m)
        for x in m:
            votes[x] += 1
    return votes, mappings
