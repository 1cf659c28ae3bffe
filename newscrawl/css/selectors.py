"""Selector compilation (cssselect2) and memoised matching against lxml trees.

cssselect2 parses selectors from tinycss2 tokens (no second CSS parser) and compiles each
compound selector to a fast predicate. We match the combinators ourselves, right to left, with
per-resolver memo tables: cssselect2's own combinator code backtracks (``p a a a a span`` on a
deep tree is exponential) and builds ancestor tuples recursively (a deep DOM overflows the
stack). With memoisation a selector costs O(parts x depth) per page at worst.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from functools import partial
from typing import Any, cast
from urllib.parse import urlparse

import tinycss2
from cssselect2 import ElementWrapper
from cssselect2 import parser as css_parser
from cssselect2.compiler import _compile_node, split_whitespace
from webencodings import ascii_lower

from newscrawl.textcache import MAX_KEY_CHARS, memorable, text_cache

# Selectors longer than this are dropped: no real stylesheet needs them; hostile ones are costly.
MAX_COMPOUNDS = 32
MAX_SELECTOR_TOKENS = 200
MAX_SELECTORS_PER_RULE = 512
# Bounds of the compilation caches (docs/decisions.md, "CSS caches and garbage collection"):
# compiled selectors are many objects each, walked by every full garbage collection.
SELECTOR_TEXTS = 2048  # rule preludes (compile_selector_text)
SELECTOR_PARTS = 4096  # plain selectors of the fast path, by text
COMPOUNDS = 2048  # compiled compounds, of either path

Test = Callable[[Any], bool]
# A synthetic key's test: (the element's keys as element_keys gives them, id text, class text).
KeyTest = Callable[[Any, "str | None", "str | None"], bool]

_NO_KEYS: frozenset[str] = frozenset()  # every empty key set (each frozenset() is a new object)


def _keyset(keys: Any) -> frozenset[str]:
    """A frozenset of these keys; the shared empty one when there are none."""
    return frozenset(keys) if keys else _NO_KEYS


_UNKNOWN: Any = object()


class Node(ElementWrapper):
    """An ElementWrapper created on demand for any lxml element, without recursion; with a
    registry, its parent's wrapper is made only when a selector looks up the tree."""

    def __init__(
        self,
        etree_element: Any,
        parent: Node | None = _UNKNOWN,
        index: int | None = None,
        previous: Any = False,
        in_html_document: bool = True,
        content_language: str | None = None,
        registry: NodeRegistry | None = None,
    ):
        self.etree_element = etree_element
        self._parent = parent
        self._index = index
        self._previous = previous  # False: not known yet
        # A weak reference: registry -> node -> registry would make every page's nodes (and
        # through them its lxml tree) cyclic garbage, freed only by full GC passes.
        self._registry = None if registry is None else weakref.ref(registry)
        self.in_html_document = in_html_document
        self.transport_content_language = content_language
        self._ancestors: tuple | None = None
        self._previous_siblings: tuple | None = None
        # Plain attributes shadow cssselect2's cached properties (each read of those takes a
        # lock and a function call; compiled selectors read them constantly).
        tag = etree_element.tag
        self.namespace_url: str
        self.local_name: str
        self.namespace_url, self.local_name = (
            ("", tag) if "}" not in tag else (tag[1 : tag.index("}")], tag[tag.index("}") + 1 :])
        )
        self.id = etree_element.get("id")
        self.classes = set(split_whitespace(etree_element.get("class", "")))

    @property
    def parent(self) -> Node | None:
        parent = self._parent
        if parent is _UNKNOWN:
            up = self.etree_element.getparent()
            registry = self._registry() if self._registry is not None else None
            parent = self._parent = None if up is None or registry is None else registry.node(up)
        return parent

    @property
    def etree_siblings(self) -> list[Any]:
        return self.parent.etree_children if self.parent is not None else [self.etree_element]

    @property
    def index(self) -> int:
        if self._index is None:
            registry = self._registry() if self._registry is not None else None
            if self.parent is None or registry is None:
                self._index = 0
            else:
                self._index = registry.child_index(self.parent)[self.etree_element]
        return self._index

    @property
    def previous(self) -> Node | None:
        if self._previous is False:
            index = self.index
            registry = self._registry() if self._registry is not None else None
            if index == 0 or self.parent is None or registry is None:
                self._previous = None
            else:
                self._previous = registry.node(self.etree_siblings[index - 1])
        return self._previous

    @property
    def ancestors(self) -> tuple:
        if self._ancestors is None:
            chain = []
            node = self.parent
            while node is not None:
                chain.append(node)
                node = node.parent
            chain.reverse()
            self._ancestors = tuple(chain)
        return self._ancestors

    @property
    def previous_siblings(self) -> tuple:
        if self._previous_siblings is None:
            registry = self._registry() if self._registry is not None else None
            if registry is None or self.parent is None:
                siblings = []
                node = self.previous
                while node is not None:
                    siblings.append(node)
                    node = node.previous
                siblings.reverse()
            else:
                siblings = [registry.node(e) for e in self.etree_siblings[: self.index]]
            self._previous_siblings = tuple(siblings)
        return self._previous_siblings


class NodeRegistry:
    """One Node per lxml element of a document, created on first use (its ancestors' only
    when a selector walks up: most tests left per element look at the element alone)."""

    def __init__(self) -> None:
        self._nodes: dict[Any, Node] = {}
        self._child_index: dict[Any, dict[Any, int]] = {}

    def node(self, element: Any) -> Node:
        node = self._nodes.get(element)
        if node is None:
            node = self._nodes[element] = Node(element, registry=self)
        return node

    def child_index(self, parent: Node) -> dict[Any, int]:
        index = self._child_index.get(parent.etree_element)
        if index is None:
            index = {child: i for i, child in enumerate(parent.etree_children)}
            self._child_index[parent.etree_element] = index
        return index


class Selector:
    """One complex selector: compound predicates right to left, with their combinators.

    ``parts[i] = (test, combinator)``: ``combinator`` joins compound i to compound i+1 (its
    left neighbour); the last one is None. ``key`` is the index key of the rightmost compound:
    ("id", v), ("class", v), ("tag", v) or ("*", None).
    """

    __slots__ = (
        "parts",
        "specificity",
        "key",
        "own",
        "parent_own",
        "required",
        "implied",
        "plain",
        "presence",
        "keys",
        "synthetic",
        "residual",
    )

    def __init__(
        self,
        parts: tuple,
        specificity: tuple[int, int, int],
        key: tuple,
        own: frozenset[str] = frozenset(),
        required: frozenset[str] = frozenset(),
        implied: bool = False,
        parent_own: frozenset[str] = frozenset(),
        plain: bool = False,
        presence: frozenset[str] = frozenset(),
        keys: tuple[frozenset[str], ...] = (),
        synthetic: tuple[tuple[str, KeyTest], ...] = (),
        residual: Callable[[Any], bool] | None = None,
    ) -> None:
        self.parts = parts
        self.specificity = specificity
        self.key = key
        # Ids, classes and tag the subject itself must have (all of the rightmost compound's),
        # and those its parent must have ("X > *": the compound left of a child combinator).
        self.own = own
        self.parent_own = parent_own
        # True when the own-key and ancestor-key tests already prove a match (".a.b", "h1",
        # ".a p"): most rules of real sheets, matched without running a predicate.
        self.implied = implied
        # Ids ("#x"), classes (".x") and tags some ancestor must have: a set test rejects most
        # descendant selectors before any matching (browsers use a Bloom filter the same way).
        self.required = required
        # Tags, ids, classes (or "*") joined by descendant/child combinators, the subject also
        # possibly with [attr] / a:link: whether it matches depends on nothing but the keys of
        # the element and of its ancestors, in order, and on which of the ``presence``
        # attributes the element has.
        self.plain = plain
        self.presence = presence
        # For plain selectors: each compound's keys, subject first (matching them is a set
        # inclusion per compound: the keys are all the compound says).
        self.keys = keys
        # (key, test) of the synthetic keys among the keys above (see synthetic_key): the
        # cascade gives an element such a key when the test passes on it. A cascade that does
        # not evaluate one must test this selector per element, with that key left out.
        self.synthetic = synthetic
        # Not plain only because the subject is also ``:empty``: the keys along the chain
        # decide the rest, and this test on the lxml element (cheaper than matches()) the
        # subject's emptiness.
        self.residual = residual

    def matches(self, node: Node, memo: dict) -> bool:
        if not self.parts[0][0](node):
            return False
        return self._rest(node, 0, memo)

    def _m(self, node: Node, i: int, memo: dict) -> bool:
        """Whether ``node`` matches compound i and everything to its left (memoised)."""
        key = (id(self), i, node.etree_element)
        found = memo.get(key)
        if found is None:
            found = bool(self.parts[i][0](node)) and self._rest(node, i, memo)
            memo[key] = found
        return found

    def _rest(self, node: Node, i: int, memo: dict) -> bool:
        """``node`` matched compound i: do compounds i+1.. match relative to it?"""
        combinator = self.parts[i][1]
        if combinator is None:
            return True
        j = i + 1
        if combinator == ">":
            parent = node.parent
            return parent is not None and self._m(parent, j, memo)
        if combinator == "+":
            previous = node.previous
            return previous is not None and self._m(previous, j, memo)
        step = _parent if combinator == " " else _previous
        # Some node along the chain matches compound j: memo per chain start ("any" tables).
        tag = "a" if combinator == " " else "s"
        path = []
        current = step(node)
        result = False
        while current is not None:
            key = (id(self), j, tag, current.etree_element)
            known = memo.get(key)
            if known is not None:
                result = known
                break
            if self._m(current, j, memo):
                result = True
                memo[key] = True
                break
            path.append(key)
            current = step(current)
        for key in path:
            memo[key] = result
        return result


def _parent(node: Node) -> Node | None:
    return node.parent


def _previous(node: Node) -> Node | None:
    return node.previous


_KEY_RANK = {"id": 0, "class": 1, "tag": 2, "attr": 3, "*": 4}


def _compound_key(compound: Any) -> tuple:
    """Index key of a compound: its id, else a class, a tag, an attribute name, else "*".

    ``:is(X)``/``:where(X)`` with a single selector lend X's key; ``:root`` counts as html.
    """
    best: tuple = ("*", None)
    for simple in compound.simple_selectors:
        if isinstance(simple, css_parser.IDSelector):
            key: tuple = ("id", simple.ident)
        elif isinstance(simple, css_parser.ClassSelector):
            key = ("class", simple.class_name)
        elif isinstance(simple, css_parser.LocalNameSelector):
            key = ("tag", simple.lower_local_name)
        elif isinstance(simple, css_parser.AttributeSelector) and simple.namespace is not None:
            key = ("attr", simple.lower_name)
        elif isinstance(simple, css_parser.PseudoClassSelector) and simple.name == "root":
            key = ("tag", "html")
        elif (
            isinstance(simple, (css_parser.MatchesAnySelector, css_parser.SpecificityAdjustmentSelector))
            and len(simple.selector_list) == 1
        ):
            tree = simple.selector_list[0].parsed_tree
            if isinstance(tree, css_parser.CombinedSelector):
                tree = tree.right
            key = _compound_key(tree) if isinstance(tree, css_parser.CompoundSelector) else ("*", None)
        else:
            continue
        if _KEY_RANK[key[0]] < _KEY_RANK[best[0]]:
            best = key
    return best


def compound_keys(compound: Any) -> set[str]:
    """ "#id", ".class", "tag" and synthetic keys an element must all have to match
    ``compound``."""
    return _compound_facts(compound)[0]


# The key of ``:root``: the cascade gives it to the document's root element (its key chain
# knows it has no parent), so ``:root`` selectors are decided like tags and classes.
ROOT_KEY = ":root"


def _is_root(simple: Any) -> bool:
    return isinstance(simple, css_parser.PseudoClassSelector) and simple.name == "root"


_KEY_SIMPLES = (css_parser.IDSelector, css_parser.ClassSelector, css_parser.LocalNameSelector)
_SYNTHETIC_OPERATORS = frozenset({"=", "~=", "^=", "$=", "*=", "|="})


def synthetic_key(simple: Any) -> str | None:
    """A key standing for a simple selector whose outcome depends only on the element's tag
    and its id and class attribute text (``[class*=ad-]``, ``:not(.x)``, ``:is(h1, .t)``),
    else None. The cascade evaluates it once per (tag, id, class) and then matches it by set
    inclusion like an id or a class, instead of testing the selector on every element."""
    if isinstance(simple, css_parser.AttributeSelector):
        if not _keyable_attribute(simple):
            return None
    elif isinstance(
        simple, (css_parser.NegationSelector, css_parser.MatchesAnySelector, css_parser.SpecificityAdjustmentSelector)
    ):
        if not simple.selector_list:
            return None
        for inner in simple.selector_list:  # one level: compounds of keys and attributes
            tree = inner.parsed_tree
            if (
                inner.pseudo_element is not None
                or not isinstance(tree, css_parser.CompoundSelector)
                or not tree.simple_selectors
                or not all(
                    isinstance(s, _KEY_SIMPLES)
                    or (isinstance(s, css_parser.AttributeSelector) and _keyable_attribute(s))
                    for s in tree.simple_selectors
                )
            ):
                return None
    else:
        return None
    return f"~{type(simple).__name__}{simple!r}"  # "~" starts no tag, id or class key


def _keyable_attribute(simple: Any) -> bool:
    """``[class op value]`` / ``[id op value]``: decided by the attribute's text alone."""
    return simple.namespace == "" and simple.lower_name in ("class", "id") and simple.operator in _SYNTHETIC_OPERATORS


def _synthetic_tests(compounds: list[Any]) -> tuple[tuple[str, KeyTest], ...]:
    """(key, test) for each synthetic key of these compounds."""
    found: dict[str, KeyTest] = {}
    for compound in compounds:
        for simple in compound.simple_selectors:
            key = synthetic_key(simple)
            if key is not None and key not in found:
                found[key] = _key_test(simple)
    return tuple(found.items())


def _key_test(simple: Any) -> KeyTest:
    """The test of a synthetic key on (keys, id, class): cssselect2's semantics (compiler.py)
    for these selectors, without wrapping the element (tests/css compare the two)."""
    if isinstance(simple, css_parser.AttributeSelector):
        return _attribute_test(
            simple.lower_name == "id",
            simple.operator,
            simple.value.lower() if simple.case_sensitive is False else simple.value,
            simple.case_sensitive is False,
        )
    compounds = tuple(_compound_test(inner.parsed_tree) for inner in simple.selector_list)
    if isinstance(simple, css_parser.NegationSelector):
        return partial(_none_match, compounds)
    return partial(_any_match, compounds)


def split_key_tests(tests: tuple[tuple[str, KeyTest], ...]) -> tuple[tuple, tuple, tuple]:
    """Synthetic key tests as (absent, present, other): ``:not(.a, #b)`` and ``:is(.a, p)`` of
    single keys are set tests (name, keys: the element has none / some of them), the rest
    (name, test) calls; most keys of real sheets are the former, and an element is described
    by all of them."""
    absent: list[tuple[str, frozenset[str]]] = []
    present: list[tuple[str, frozenset[str]]] = []
    other: list[tuple[str, KeyTest]] = []
    for name, test in tests:
        compounds = test.args[0] if isinstance(test, partial) and test.func in (_none_match, _any_match) else ()
        if compounds and all(len(needed) == 1 and not attributes for needed, attributes in compounds):
            keys = frozenset().union(*(needed for needed, _attributes in compounds))
            (absent if getattr(test, "func", None) is _none_match else present).append((name, keys))
        else:
            other.append((name, test))
    return tuple(absent), tuple(present), tuple(other)


def _compound_test(compound: Any) -> tuple[frozenset[str], tuple[KeyTest, ...]]:
    simples = compound.simple_selectors
    keys = frozenset(
        compound_keys(
            css_parser.CompoundSelector(  # ids, classes, tag it needs
                [s for s in simples if isinstance(s, _KEY_SIMPLES)]
            )
        )
    )
    attributes = tuple(_key_test(s) for s in simples if isinstance(s, css_parser.AttributeSelector))
    return keys, attributes


def _compound_matches(compound: tuple, keys: Any, id_text: str | None, class_text: str | None) -> bool:
    needed, attributes = compound
    return needed <= keys and all(test(keys, id_text, class_text) for test in attributes)


def _any_match(compounds: tuple, keys: Any, id_text: str | None, class_text: str | None) -> bool:
    return any(_compound_matches(c, keys, id_text, class_text) for c in compounds)


def _none_match(compounds: tuple, keys: Any, id_text: str | None, class_text: str | None) -> bool:
    return not _any_match(compounds, keys, id_text, class_text)


def _attribute_test(is_id: bool, operator: str, value: str, fold: bool) -> KeyTest:
    """cssselect2's attribute operators on the id or class text; an absent attribute matches
    no operator (cssselect2 reads "" for ^= $= *= ~=, where an empty value never matches)."""

    def text_of(id_text: str | None, class_text: str | None) -> str | None:
        text = id_text if is_id else class_text
        return text.lower() if fold and text is not None else text

    if operator == "=":
        return lambda _keys, i, c: text_of(i, c) == value
    if operator == "~=":
        if len(value.split()) != 1 or value.strip() != value:
            return _never
        return lambda _keys, i, c: value in split_whitespace(text_of(i, c) or "")
    if operator == "|=":
        dashed = value + "-"
        return lambda _keys, i, c: (text := text_of(i, c)) is not None and (text == value or text.startswith(dashed))
    if not value:
        return _never
    if not fold:  # the common case, one comparison
        if operator == "^=":
            return (
                (lambda _keys, i, c: i is not None and i.startswith(value))
                if is_id
                else (lambda _keys, i, c: c is not None and c.startswith(value))
            )
        if operator == "$=":
            return (
                (lambda _keys, i, c: i is not None and i.endswith(value))
                if is_id
                else (lambda _keys, i, c: c is not None and c.endswith(value))
            )
        return (
            (lambda _keys, i, c: i is not None and value in i)
            if is_id
            else (lambda _keys, i, c: c is not None and value in c)
        )
    if operator == "^=":
        return lambda _keys, i, c: (text_of(i, c) or "").startswith(value)
    if operator == "$=":
        return lambda _keys, i, c: (text_of(i, c) or "").endswith(value)
    return lambda _keys, i, c: value in (text_of(i, c) or "")


def _never(_keys: Any, _id_text: str | None, _class_text: str | None) -> bool:
    return False


def element_keys(element: Any) -> set[str]:
    """The keys ``compound_keys`` speaks of, for one lxml element."""
    return keys_of(element.tag, element.get("id"), element.get("class"))


def keys_of(tag: Any, element_id: str | None, classes: str | None) -> set[str]:
    """:func:`element_keys` of an element with this tag, id and class attribute, for callers that
    have read them already (the cascade reads them once an element for its memo key)."""
    keys = {tag.lower()} if isinstance(tag, str) else set()
    if element_id is not None:
        keys.add("#" + element_id)
    if classes:
        keys.update(["." + c for c in split_whitespace(classes)])  # ASCII whitespace only
    return keys


_COMPOUNDS: dict[tuple, Test | None] = {}
_MISSING: Any = object()  # a sentinel: no cached entry


def _compile_compound_cached(compound: Any) -> Test | None:
    """Compounds repeat across selectors (".entry-content", "a"): compile each one once."""
    key = tuple((type(simple).__name__, repr(simple)) for simple in compound.simple_selectors)
    if sum(len(text) for _kind, text in key) > MAX_KEY_CHARS:  # never held (textcache)
        return _compile_compound(compound)
    test = _COMPOUNDS.get(key, _MISSING)  # one lookup: big sheets are parsed in a thread
    if test is _MISSING:
        if len(_COMPOUNDS) >= COMPOUNDS:
            _COMPOUNDS.clear()
        test = _COMPOUNDS[key] = _compile_compound(compound)
    return test


def _compile_compound(compound: Any) -> Test | None:
    """cssselect2's predicate for a compound (CompiledSelector's ``lambda el: <source>``), or
    None when it never matches. Compiling Python source is the cost (~50 us), and sources
    differ mostly in their string literals (``'x' in el.classes``): each source is compiled
    once per shape, its literals replaced by items of a tuple the predicate closes over
    (2,060 compounds of 374 trafilatura-eval pages have 131 shapes)."""
    source = _compile_node(compound)
    if source == "0":
        return None
    if "\\" in source:  # a literal with escapes: not read here
        return eval("lambda el: " + source, dict(_EVAL_GLOBALS), {})
    literals: list[str] = []
    shape = _LITERAL.sub(lambda match: _literal(match, literals), source)
    factory = _SHAPES.get(shape)
    if factory is None:
        if len(_SHAPES) >= COMPOUNDS:
            _SHAPES.clear()
        factory = _SHAPES[shape] = eval(f"lambda {_LITERALS}: lambda el: {shape}", dict(_EVAL_GLOBALS), {})
    return factory(tuple(literals))


# The names cssselect2's compiled sources use (cssselect2.compiler.CompiledSelector).
_EVAL_GLOBALS = {"split_whitespace": split_whitespace, "ascii_lower": ascii_lower, "urlparse": urlparse}
# A str literal as repr() writes it when it holds no backslash: its value is the text between
# the quotes (repr picks the quote the text lacks, or escapes it with a backslash).
_LITERAL = re.compile(r"""'[^'\\\n]*'|"[^"\\\n]*\"""")
_LITERALS = "_newscrawl_literals"  # a name no cssselect2 source uses
_SHAPES: dict[str, Callable[[tuple[str, ...]], Test]] = {}


def _literal(match: re.Match[str], literals: list[str]) -> str:
    literals.append(match.group()[1:-1])
    return f"{_LITERALS}[{len(literals) - 1}]"


def _split_selector_list(prelude: list[Any]) -> list[list[Any]]:
    parts: list[list[Any]] = [[]]
    for token in prelude:
        if token.type == "literal" and token.value == ",":
            parts.append([])
        else:
            parts[-1].append(token)
    return parts


@text_cache(SELECTOR_TEXTS)
def compile_selector_text(prelude: str) -> tuple[tuple[Selector, ...], int] | None:
    """compile_selector_list for a prelude given as text; cached, since real stylesheets
    repeat selectors (in each @media block, in every page's <style>). None when invalid."""
    simple = _compile_simple_list(prelude)
    if simple is not None:
        return simple
    parts = _top_level_parts(prelude)
    if parts is not None and len(parts) <= MAX_SELECTORS_PER_RULE:
        return _compile_parts(parts)
    try:
        selectors, dropped = compile_selector_list(tinycss2.parse_component_value_list(prelude, True))
    except ValueError:
        return None
    return tuple(selectors), dropped


def compile_selector_list(prelude: list[Any]) -> tuple[list[Selector], int]:
    """Selectors of a rule prelude that can match an element, and how many were dropped.

    Pseudo-element selectors, never-matching ones (:hover and other dynamic states) and
    over-long ones are dropped; an invalid selector invalidates the whole rule, as in browsers
    (ValueError).
    """
    selectors: list[Selector] = []
    dropped = 0
    parts = _split_selector_list(prelude)
    if len(parts) > MAX_SELECTORS_PER_RULE:
        dropped += len(parts) - MAX_SELECTORS_PER_RULE
        parts = parts[:MAX_SELECTORS_PER_RULE]
    for part in parts:
        if len(part) > MAX_SELECTOR_TOKENS:
            dropped += 1
            continue
        try:
            parsed = list(css_parser.parse(part))
        except (
            css_parser.SelectorError,
            RecursionError,
            NotImplementedError,
            TypeError,
            IndexError,
            AttributeError,
        ) as exc:
            raise ValueError(f"invalid selector: {exc}") from None
        for selector in parsed:
            compiled = _compile(selector)
            if compiled is None:
                dropped += 1
            else:
                selectors.append(compiled)
    return selectors, dropped


def _compile(selector: Any) -> Selector | None:
    if selector.pseudo_element is not None:
        return None
    compounds: list[Any] = []
    combinators: list[str | None] = []
    tree = selector.parsed_tree
    while isinstance(tree, css_parser.CombinedSelector) and len(compounds) <= MAX_COMPOUNDS:
        compounds.append(tree.right)
        combinators.append(tree.combinator)
        tree = tree.left
    compounds.append(tree)
    combinators.append(None)
    if len(compounds) > MAX_COMPOUNDS:
        return None
    try:
        tests = [_compile_compound_cached(c) for c in compounds]
    except (
        css_parser.SelectorError,
        RecursionError,
        SyntaxError,
        MemoryError,
        NotImplementedError,
        TypeError,
        ValueError,
        AttributeError,
    ):
        return None
    if any(t is None for t in tests):
        return None
    facts = [_compound_facts(c) for c in compounds]  # (keys, keys only) per compound
    required: set[str] = set()
    for k in range(1, len(compounds)):
        if combinators[k - 1] in (" ", ">"):  # compound k is an ancestor of the subject
            required.update(facts[k][0])
    own = facts[0][0]
    parent_own = facts[1][0] if combinators[0] == ">" else _NO_KEYS
    implied = (facts[0][1] or _is_universal(compounds[0])) and (
        len(compounds) == 1
        or (
            len(compounds) == 2
            and facts[1][1]
            and (combinators[0] == ">" or (combinators[0] == " " and len(facts[1][0]) == 1))
        )
    )
    presence = _presence(compounds[0])
    chained = all(keys_only or _is_universal(c) for (_keys, keys_only), c in zip(facts[1:], compounds[1:])) and all(
        c in (" ", ">", None) for c in combinators
    )
    plain = presence is not None and chained
    residual = _is_empty if chained and _keys_and_empty(compounds[0]) else None
    return Selector(
        tuple(zip(tests, combinators)),
        tuple(selector.specificity),
        _compound_key(compounds[0]),
        _keyset(own),
        _keyset(required),
        implied,
        _keyset(parent_own),
        plain,
        presence if plain and presence else _NO_KEYS,
        tuple(_keyset(keys) for keys, _keys_only in facts) if plain or residual else (),
        _synthetic_tests(compounds),
        residual,
    )


def _compound_facts(compound: Any) -> tuple[set[str], bool]:
    """compound_keys(compound), and whether the compound is only ids, classes, a tag, ``:root``
    and synthetic keys (its keys say all about it), in one pass: each simple selector's
    synthetic key is read once (_compile asked for both several times per compound)."""
    keys: set[str] = set()
    keys_only = bool(compound.simple_selectors)
    for simple in compound.simple_selectors:
        if isinstance(simple, css_parser.IDSelector):
            keys.add("#" + simple.ident)
        elif isinstance(simple, css_parser.ClassSelector):
            keys.add("." + simple.class_name)
        elif isinstance(simple, css_parser.LocalNameSelector):
            keys.add(simple.lower_local_name)
        elif _is_root(simple):
            keys.add(ROOT_KEY)
        else:
            key = synthetic_key(simple)
            if key is None:
                keys_only = False
            else:
                keys.add(key)
    return keys, keys_only


def _keys_and_empty(compound: Any) -> bool:
    """Keys (tag, ids, classes, :root, synthetic) and ``:empty``, nothing else."""
    simples = compound.simple_selectors
    empty = [s for s in simples if isinstance(s, css_parser.PseudoClassSelector) and s.name == "empty"]
    return bool(empty) and all(
        isinstance(s, _KEY_SIMPLES) or _is_root(s) or synthetic_key(s) is not None for s in simples if s not in empty
    )


def _is_empty(element: Any) -> bool:
    """cssselect2's ``:empty``: no element children and no text before the first child."""
    return not (element.text or any(isinstance(child.tag, str) for child in element))


def _presence(compound: Any) -> frozenset[str] | None:
    """Attribute names whose presence, with the compound's tag/ids/classes, decides whether an
    element matches it (``[disabled]``, ``a:link``); None when something else counts too."""
    names: set[str] = set()
    has_tag = any(isinstance(s, css_parser.LocalNameSelector) for s in compound.simple_selectors)
    for simple in compound.simple_selectors:
        if isinstance(simple, _KEY_SIMPLES) or _is_root(simple) or synthetic_key(simple) is not None:
            continue
        if isinstance(simple, css_parser.AttributeSelector) and simple.operator is None and simple.namespace == "":
            names.add(simple.lower_name)
        elif isinstance(simple, css_parser.PseudoClassSelector) and has_tag and simple.name in ("link", "any-link"):
            names.add("href")  # a/area/link with an href; the tag is among the keys
        else:
            return None
    return frozenset(names)


def _is_universal(compound: Any) -> bool:
    """``*`` (cssselect2 drops it: an empty compound)."""
    return not compound.simple_selectors


# --- fast path: lists of plain compounds (tag, #id, .class) and combinators ----------------------
# Most selectors of real sheets look like ".post .entry-title a", "h1, #main > p.lead" or
# ".btn:hover, .x::before". They are compiled from the text, without tinycss2 tokens,
# cssselect2's parser or eval'd predicates, into the same Selector a full compilation gives
# (tests/css/test_selectors.py compares them); selectors with a pseudo-element or a dynamic
# pseudo-class (never matching in a static document) are counted as dropped, as the full path
# does. Anything else (other pseudo-classes, attributes, escapes, non-ASCII, upper-case tags)
# takes the full path.
_WS = "[ \t\n\r\f]"
_IDENT = r"-?[A-Za-z_][A-Za-z0-9_-]*"
# An attribute's presence or equality, [name] or [name=value]: a lower-case name (so no
# html/xml name choice), a value that is an ident or a string of a few safe characters (no
# escapes, spaces, commas, colons, quotes, brackets or combinator characters). [class...] and
# [id...] are synthetic keys: they take the full path.
_ATTRIBUTE_VALUE = r"""[A-Za-z0-9_.#%/=-]*"""
_ATTRIBUTE = (
    rf"\[-?[a-z_][a-z0-9_-]*(?:=(?:{_IDENT}|\"{_ATTRIBUTE_VALUE}\""
    rf"|'{_ATTRIBUTE_VALUE}'))?\]"
)
# Compounds are never empty and hold no whitespace, so a combinator can be read only one way
# (an empty compound would let runs of spaces split in exponentially many ways on failure).
_COMPOUND = (
    rf"(?:(?:\*|[a-z][a-z0-9_-]*)(?:[.#]{_IDENT}|:{_IDENT}|{_ATTRIBUTE})*"
    rf"|(?:[.#]{_IDENT}|:{_IDENT}|{_ATTRIBUTE})+)"
)
_SIMPLE_SELECTOR = re.compile(rf"{_COMPOUND}(?:(?:{_WS}*[>+~]{_WS}*|{_WS}+){_COMPOUND})*")
_PIECES = re.compile(rf"({_WS}*[>+~]{_WS}*|{_WS}+)|([^ \t\n\r\f>+~]+)")
# A compound's simple selectors: an attribute (name, ident value, string value), or a prefix
# and a name.
_SIMPLES = re.compile(
    rf"""\[([^=\]]+)(?:(=)(?:({_IDENT})|"([^"]*)"|'([^']*)'))?\]"""
    rf"|([.#]?)({_IDENT}|\*)"
)
_PSEUDO_CLASS = re.compile(rf":({_IDENT})")
_TRAILING_PSEUDO = re.compile(rf"(::?)({_IDENT})$")
_LEGACY_PSEUDO_ELEMENTS = frozenset({"before", "after", "first-line", "first-letter"})
# cssselect2 compiles these to "never matches" (compiler.py), so the selector is dropped.
_DYNAMIC_PSEUDO_CLASSES = frozenset(
    {
        "visited",
        "hover",
        "active",
        "focus",
        "focus-within",
        "focus-visible",
        "target",
        "target-within",
        "current",
        "past",
        "future",
        "playing",
        "paused",
        "seeking",
        "buffering",
        "stalled",
        "muted",
        "volume-locked",
        "user-valid",
        "user-invalid",
        "host",
    }
)
_SIMPLE_CACHE: dict[str, tuple] = {}
_PART_CACHE: dict[str, Any] = {}
_FULL_PATH: Any = object()  # a sentinel: the selector needs the full path


def _compile_simple_list(prelude: str) -> tuple[tuple[Selector, ...], int] | None:
    """(selectors, dropped) of a prelude made only of plain compounds, or of selectors the
    full path would drop; None to take the full path."""
    parts = prelude.split(",")
    if len(parts) > MAX_SELECTORS_PER_RULE:
        return None
    selectors: list[Selector] = []
    dropped = 0
    for part in parts:
        found = _cached_part(part.strip(" \t\n\r\f"))
        if found is _FULL_PATH:
            return None
        if found is None:
            dropped += 1
        else:
            selectors.append(found)
    return tuple(selectors), dropped


def _cached_part(part: str) -> Any:
    """_simple_part (a Selector, None or _FULL_PATH), memoised: parts repeat across rules (".entry-content p");
    a part longer than textcache.MAX_KEY_CHARS is compiled each time, never held."""
    if not memorable(part):
        return _simple_part(part)
    found = _PART_CACHE.get(part, _MISSING)
    if found is _MISSING:
        if len(_PART_CACHE) >= SELECTOR_PARTS:
            _PART_CACHE.clear()
        found = _PART_CACHE[part] = _simple_part(part)
    return found


# Strings, comments, and the characters that open or close blocks, cut selectors, or stop the
# text from being cut here (an open string or comment, escapes, braces).
_PRELUDE_TOKENS = re.compile(r""""[^"\\\n\r\f]*"|'[^'\\\n\r\f]*'|/\*.*?\*/|/\*|[()\[\],"'\\{}]""", re.S)
_CLOSING = {"(": ")", "[": "]"}


def _top_level_parts(prelude: str) -> list[str] | None:
    """The prelude cut at its top-level commas (outside blocks, strings and comments), as
    tinycss2's tokens cut it; None when not read here (escapes, braces, open strings, comments
    or blocks)."""
    parts: list[str] = []
    closers: list[str] = []
    start = 0
    for match in _PRELUDE_TOKENS.finditer(prelude):
        token = match.group()
        if token == ",":
            if not closers:
                parts.append(prelude[start : match.start()])
                start = match.end()
        elif token == "(" or token == "[":
            closers.append(_CLOSING[token])
        elif token == ")" or token == "]":
            if not closers or closers.pop() != token:
                return None
        elif len(token) == 1 or token == "/*":
            return None
    if closers:
        return None
    parts.append(prelude[start:])
    return parts


def _compile_parts(parts: list[str]) -> tuple[tuple[Selector, ...], int] | None:
    """compile_selector_list's result for a prelude cut into its selectors: plain ones by the
    fast path, the others each through cssselect2 alone (so one ``[type=x]`` among fifty
    plain selectors does not send them all through tinycss2). None when invalid."""
    selectors: list[Selector] = []
    dropped = 0
    for part in parts:
        text = part.strip(" \t\n\r\f")
        found = _cached_part(text)
        if found is _FULL_PATH and text.startswith("/*"):
            # a block's first prelude often starts with a comment, which tinycss2 skips
            found = _cached_part(_after_comments(text))
        if found is _FULL_PATH:
            try:  # the part's own text: the tokens the whole prelude's has between its commas
                compiled, lost = compile_selector_list(tinycss2.parse_component_value_list(part, True))
            except ValueError:
                return None
            selectors += compiled
            dropped += lost
        elif found is None:
            dropped += 1
        else:
            selectors.append(found)
    return tuple(selectors), dropped


def _after_comments(text: str) -> str:
    """``text`` without its leading comments and whitespace (unchanged if one is left open)."""
    rest = text
    while rest.startswith("/*"):
        close = rest.find("*/", 2)
        if close < 0:
            return text
        rest = rest[close + 2 :].lstrip(" \t\n\r\f")
    return rest


def _simple_part(part: str) -> Selector | None | object:
    """The Selector of one plain selector, None if the full path would drop it, or
    _FULL_PATH."""
    if len(part) > MAX_SELECTOR_TOKENS:
        return _FULL_PATH
    pseudo_element = False
    colon = ":" in part  # most parts have no pseudo-class or pseudo-element to look for
    trailing = _TRAILING_PSEUDO.search(part) if colon else None
    if trailing is not None:
        colons, name = trailing.groups()
        name = name.lower()
        if colons == "::" and name not in css_parser.SUPPORTED_PSEUDO_ELEMENTS:
            return _FULL_PATH  # an invalid rule: the full path says so
        if colons == "::" or name in _LEGACY_PSEUDO_ELEMENTS:
            pseudo_element = True
            part = part[: trailing.start()].rstrip(" \t\n\r\f")
    if not part:
        return None if pseudo_element else _FULL_PATH  # "::before" alone is dropped
    if _SIMPLE_SELECTOR.fullmatch(part) is None:
        return _FULL_PATH
    classes = {name.lower() for name in _PSEUDO_CLASS.findall(part)} if colon else None
    if classes and not classes <= _DYNAMIC_PSEUDO_CLASSES:
        return _FULL_PATH
    compounds: list[str] = []
    combinators: list[str | None] = []
    for combinator, compound in _PIECES.findall(part):
        if compound:
            compounds.append(compound)
        else:
            combinators.append(combinator.strip(" \t\n\r\f") or " ")
    if len(compounds) != len(combinators) + 1 or len(compounds) > MAX_COMPOUNDS:
        return _FULL_PATH
    if pseudo_element or classes:
        return None
    compounds.reverse()
    combinators.reverse()
    combinators.append(None)
    read = [_simple_compound(c) for c in compounds]
    if None in read:
        return _FULL_PATH
    return _simple_selector(cast("list[tuple]", read), combinators)


def _simple_compound(text: str) -> tuple | None:
    """(test, index key, keys, specificity, universal, parts, keys tuple, keys only, presence)
    of a plain compound, cached; parts and keys tuple are a Selector's of this compound alone,
    shared by those. Keys only: its keys say all about it (no attribute); presence: the names
    of its [name] attributes, None with an [name=value] (as _presence). None for [class] and
    [id] attributes (synthetic keys: the full path)."""
    found = _SIMPLE_CACHE.get(text)
    if found is None:
        tag = None
        ids: list[str] = []
        classes: list[str] = []
        attributes: list[tuple[str, str | None]] = []
        for name, equals, ident, double, single, prefix, simple in _SIMPLES.findall(text):
            if name:
                if name in ("class", "id"):
                    return None
                attributes.append((name, ident or double or single if equals else None))
            elif prefix == "#":
                ids.append(simple)
            elif prefix == ".":
                classes.append(simple)
            elif simple != "*":
                tag = simple
        key: tuple = (
            ("id", ids[0])
            if ids
            else ("class", classes[0])
            if classes
            else ("tag", tag)
            if tag
            else ("attr", attributes[0][0])
            if attributes
            else ("*", None)
        )
        keys = _keyset([*("#" + i for i in ids), *("." + c for c in classes), *((tag,) if tag else ())])
        specificity = (len(ids), len(classes) + len(attributes), 1 if tag else 0)
        test = _plain_test(tag, tuple(ids), tuple(classes), tuple(attributes))
        presence = (
            frozenset([name for name, _value in attributes])
            if all(value is None for _name, value in attributes)
            else None
        )
        found = (
            test,
            key,
            keys,
            specificity,
            not keys and not attributes,
            ((test, None),),
            (keys,),
            bool(keys) and not attributes,
            presence,
        )
        if len(_SIMPLE_CACHE) >= COMPOUNDS:
            _SIMPLE_CACHE.clear()
        _SIMPLE_CACHE[text] = found
    return found


def _plain_test(
    tag: str | None, ids: tuple[str, ...], classes: tuple[str, ...], attributes: tuple[tuple[str, str | None], ...] = ()
) -> Test:
    """cssselect2's predicate for a plain compound (el.local_name / el.id / el.classes, and
    ``name in attrib`` / ``attrib.get(name, "") == value``). A partial, not a closure: one
    object for the garbage collector instead of a function, its cells and their tuple (its
    arguments, strings only, are not tracked)."""
    if attributes:
        return partial(_attribute_match, tag, ids, classes, attributes)
    return partial(_plain_match, tag, ids, classes)


def _plain_match(tag: str | None, ids: tuple[str, ...], classes: tuple[str, ...], el: Any) -> bool:
    if tag is not None and el.local_name != tag:
        return False
    if ids and any(el.id != i for i in ids):
        return False
    if classes:
        names = el.classes
        return all(c in names for c in classes)
    return True


def _attribute_match(
    tag: str | None,
    ids: tuple[str, ...],
    classes: tuple[str, ...],
    attributes: tuple[tuple[str, str | None], ...],
    el: Any,
) -> bool:
    if not _plain_match(tag, ids, classes, el):
        return False
    attrib = el.etree_element.attrib
    for name, value in attributes:
        if name not in attrib or (value is not None and attrib.get(name, "") != value):
            return False
    return True


def _simple_selector(compounds: list[tuple], combinators: list[str | None]) -> Selector:
    """The Selector _compile builds, from plain compounds (subject first)."""
    first = compounds[0]
    # index 4: universal, 7: keys only, 8: presence (see _simple_compound)
    if len(compounds) == 1:  # most selectors: parts and keys shared through the compound cache
        if first[7] or first[4]:
            return Selector(first[5], first[3], first[1], first[2], _NO_KEYS, True, _NO_KEYS, True, _NO_KEYS, first[6])
        plain = first[8] is not None  # [name] attributes only: decided by their presence
        return Selector(
            first[5],
            first[3],
            first[1],
            first[2],
            _NO_KEYS,
            False,
            _NO_KEYS,
            plain,
            first[8] or _NO_KEYS if plain else _NO_KEYS,
            first[6] if plain else (),
        )
    required: set[str] = set()
    for k in range(1, len(compounds)):
        if combinators[k - 1] in (" ", ">"):
            required.update(compounds[k][2])
    parent_own = compounds[1][2] if combinators[0] == ">" else _NO_KEYS
    implied = (
        (first[7] or first[4])
        and len(compounds) == 2
        and compounds[1][7]
        and (combinators[0] == ">" or (combinators[0] == " " and len(compounds[1][2]) == 1))
    )
    ids = classes = tags = 0
    for compound in compounds:
        compound_ids, compound_classes, compound_tags = compound[3]
        ids += compound_ids
        classes += compound_classes
        tags += compound_tags
    specificity = (ids, classes, tags)
    plain = (
        first[8] is not None
        and all(c[7] or c[4] for c in compounds[1:])
        and all(c in (" ", ">", None) for c in combinators)
    )
    # "A B" / "A > B": the ancestor's keys are its compound's (one shared set)
    required_keys = compounds[1][2] if len(compounds) == 2 and combinators[0] in (" ", ">") else _keyset(required)
    return Selector(
        tuple(zip((c[0] for c in compounds), combinators)),
        specificity,
        first[1],
        first[2],
        required_keys,
        implied,
        parent_own,
        plain,
        first[8] or _NO_KEYS if plain else _NO_KEYS,
        tuple(c[2] for c in compounds) if plain else (),
    )
