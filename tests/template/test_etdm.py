"""Equality probability (Def. 3.2.2, Examples 3.2.3-3.2.5) and the exact top-down mapping."""

from __future__ import annotations

import pytest
from lxml import html

from newscrawl.template.etdm import Params, Skeleton, equality, etdm, map_children, position_probability

SEED_EXAMPLE = Params(w_classes=0.4, w_attributes=0.1, w_children=0.1, w_position=0.4)


def _body(inner: str) -> Skeleton:
    return Skeleton.from_element(html.document_fromstring(f"<html><body>{inner}</body></html>").find("body"))


def _siblings(count: int, at: int, node: str) -> str:
    return "".join(node if k == at else "<span></span>" for k in range(count))


def test_equality_probability_of_example_3_2_5() -> None:
    # gray DIV: class Author, 3 attributes (one value differs), 2 vs 3 children, position 11 vs 9
    # among 40 siblings (P_p = 1 - 2/40 = 0.95)
    left = '<div class="Author" float="left" color="black" background-color="silver"><i></i><i></i></div>'
    right = '<div class="Author" float="left" color="gray" background-color="silver"><i></i><i></i><i></i></div>'
    a = Skeleton.from_element(html.fromstring(f"<section>{_siblings(40, 10, left)}</section>"))
    b = Skeleton.from_element(html.fromstring(f"<section>{_siblings(40, 8, right)}</section>"))
    x, y = a.children[0][10], b.children[0][8]
    assert (a.tag[x], b.tag[y]) == ("div", "div")
    # 0.4 * 1 + 0.1 * 2/3 + 0.1 * 2/3 + 0.4 * 0.95 (the seed rounds 2/3 to 0.66 and gets 0.912)
    assert equality(a, x, b, y, SEED_EXAMPLE) == pytest.approx(0.4 + 0.1 * 2 / 3 * 2 + 0.4 * 0.95)
    assert equality(a, x, b, y, SEED_EXAMPLE) == pytest.approx(0.912, abs=0.002)


def test_equality_tag_and_id_cases() -> None:
    a = Skeleton.from_element(html.fromstring('<div><p id="x" class="a"></p><p class="a"></p></div>'))
    b = Skeleton.from_element(html.fromstring('<div><p id="x" class="b"></p><span class="a"></span></div>'))
    p = Params()
    assert equality(a, 1, b, 1, p) == 1.0  # same tag, same id
    assert equality(a, 2, b, 2, p) == 0.0  # different tags
    # no classes on both sides: the not-classes probability, not a perfect class match
    c = Skeleton.from_element(html.fromstring("<div><p></p></div>"))
    d = Skeleton.from_element(html.fromstring("<div><p></p></div>"))
    expected = p.w_classes * p.not_classes + p.w_attributes * p.not_attributes + p.w_children * p.not_children + p.w_position
    assert equality(c, 1, d, 1, p) == pytest.approx(expected)


def test_text_mismatch_factor() -> None:
    a = Skeleton.from_element(html.fromstring("<div><p>one</p></div>"))
    b = Skeleton.from_element(html.fromstring("<div><p>two</p></div>"))
    assert equality(a, 1, b, 1, Params(text_mismatch=1.0)) >= Params().threshold
    assert equality(a, 1, b, 1, Params(text_mismatch=0.5)) == pytest.approx(equality(a, 1, b, 1, Params(text_mismatch=1.0)) * 0.5)


def test_position_examples_3_2_3_and_3_2_4() -> None:
    # 3.2.3: 4th of 4 in A; in a longer B both the 4th from the left and the 1st from the right fit
    assert position_probability(3, 4, 3, 6) == 1.0
    assert position_probability(3, 4, 5, 6) == 1.0
    # 3.2.4: 4th from the left and 2nd from the right of 5 in A
    assert position_probability(3, 5, 3, 7) == 1.0
    assert position_probability(3, 5, 5, 7) == 1.0
    assert position_probability(0, 5, 4, 7) == pytest.approx(1 - 2 / 5)  # outside the window
    assert position_probability(2, 10, 4, 10) == pytest.approx(0.8)  # same counts: |i - i'| / c


def test_ordered_mapping_does_not_cross() -> None:
    a = Skeleton.from_element(html.fromstring('<div><p class="x"></p><p class="y"></p></div>'))
    b = Skeleton.from_element(html.fromstring('<div><p class="y"></p><p class="x"></p></div>'))
    loose = Params(threshold=0.5)
    assert len(map_children(a, 0, b, 0, loose)) == 1  # the second pair would cross the first
    assert len(map_children(a, 0, b, 0, Params(threshold=0.5, ordered=False))) == 2


def test_etdm_is_top_down_and_exact() -> None:
    a = _body('<div class="h"><a class="m">x</a></div><ul class="l"><li>1</li></ul>')
    b = _body('<div class="h"><a class="m">x</a></div><ol class="l"><li>1</li></ol>')
    m = etdm(a, b, Params())
    tags = sorted(a.tag[x] for x in m)
    assert tags == ["a", "body", "div"]  # ul/ol differ, so their li is not mapped either
    for x, y in m.items():
        assert a.tag[x] == b.tag[y]
        if x:
            assert m[a.parent[x]] == b.parent[y]


def test_deep_trees_need_no_recursion() -> None:
    depth = 5000
    doc = "<div>" * depth + "deep" + "</div>" * depth
    a, b = _body(doc), _body(doc)
    assert len(etdm(a, b, Params())) == len(a)


def test_a_current_marker_that_moved_to_a_sibling_is_left_out_of_the_classes() -> None:
    a = Skeleton.from_element(html.fromstring(_menu(0)))
    b = Skeleton.from_element(html.fromstring(_menu(2)))
    li_a, li_b = a.children[0][0], b.children[0][0]  # first item: "current" on a only
    assert a.classes[li_a] == {"menu-item", "current"} and b.classes[li_b] == {"menu-item"}
    p = Params()
    assert equality(a, li_a, b, li_b, p) == pytest.approx(1.0 * 0.5 + 0.2 * p.not_attributes + 0.1 + 0.2)
    assert equality(a, li_a, b, li_b, Params(moved_classes=False)) < Params().threshold
    assert set(etdm(a, b, Params()).values()) == set(range(len(b)))  # the whole menu maps
    # without "current" anywhere on b's menu, the class did not move: no exception
    c = Skeleton.from_element(html.fromstring(_menu(-1)))
    assert equality(a, li_a, c, c.children[0][0], Params()) < Params().threshold


def _menu(current: int) -> str:
    return '<ul>' + "".join(f'<li class="menu-item{" current" if k == current else ""}"><a href="/{k}/">{k}</a></li>'
                            for k in range(4)) + '</ul>'


def _etdm_without_shortcut(a: Skeleton, b: Skeleton, p: Params) -> dict[int, int]:
    """Def. 3.3.1 child list by child list, everywhere (the reference for the identical-subtree walk)."""
    mapping, stack = {0: 0}, [(0, 0)]
    while stack:
        x, y = stack.pop()
        for cx, cy in map_children(a, x, b, y, p):
            mapping[cx] = cy
            stack.append((cx, cy))
    return mapping


def test_identical_subtrees_map_as_the_full_definition_does() -> None:
    from .test_detect import SECTIONS, page

    pages = [Skeleton.from_element(html.document_fromstring(page(kind, name, seed)).find("body"))
             for kind, name, seed in [("article", "a", 1), ("section", SECTIONS[1], 2), ("article", "b", 3)]]
    shared = [i for i in range(1, len(pages[0])) if pages[0].shapes()[i] in set(pages[1].shapes())]
    assert shared  # the footer and sidebar are identical subtrees: the shortcut is taken
    for p in (Params(), Params(threshold=0.95), Params(text_mismatch=1.0, moved_classes=False)):
        for a in pages:
            for b in pages:
                assert etdm(a, b, p) == _etdm_without_shortcut(a, b, p)
