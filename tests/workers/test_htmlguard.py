"""guard_html: markup caps applied to a page's bytes before any parser sees them."""

from __future__ import annotations

import lxml.html
import pytest

from newscrawl.htmlguard import guard_html

PAGE = (b'<!DOCTYPE html><html><head><title>River plan</title><link rel="stylesheet" href="/a.css?v=1">'
        b'<script>if (a < b && c > d) { x = "<div a b c>"; }</script></head>'
        b'<body class="post single" data-x=\'{"a": ">"}\'><article id=main><h1>River plan</h1>'
        b"<p>The council voted on Tuesday.</p><img src=/a.jpg alt='a > b' width=3 height=4 loading=lazy>"
        b"</article></body></html>")


def flood(count: int, attribute: bytes = b"a%d=x") -> bytes:
    return (b"<html><body><p>Before.</p><div " + b" ".join(attribute % i for i in range(count))
            + b"><p>Inside.</p></div><p>After.</p></body></html>")


def test_a_page_under_the_caps_is_returned_as_it_is():
    for cap in (5, 1000):  # the <img> has 5 attributes, quoted ">" included
        guarded = guard_html(PAGE, max_attributes=cap)
        assert guarded.body is PAGE and not guarded.changed
    capped = guard_html(PAGE, max_attributes=4)
    assert capped.capped_tags == 1 and capped.attributes == 1
    assert capped.body == PAGE.replace(b" loading=lazy", b"")


def test_a_tag_over_the_cap_keeps_its_first_attributes_and_the_page_its_content():
    guarded = guard_html(flood(100_000), max_attributes=1000)
    assert guarded.changed and guarded.capped_tags == 1 and guarded.attributes == 99_000
    root = lxml.html.fromstring(guarded.body)
    div = root.find(".//div")
    assert len(div.attrib) == 1000 and div.get("a0") == "x" and div.get("a999") == "x" and div.get("a1000") is None
    assert [p.text for p in root.iter("p")] == ["Before.", "Inside.", "After."]


@pytest.mark.parametrize("attribute", [b'a%d="<b>x</b>"', b"a%d='>'", b"a%d", b"/a%d", b"a%d = 'x'"])
def test_quoted_values_with_markup_bare_and_slashed_attributes_all_count(attribute):
    guarded = guard_html(flood(5000, attribute), max_attributes=100)
    assert guarded.capped_tags == 1 and guarded.attributes == 4900, attribute
    assert b"Inside." in guarded.body and b"After." in guarded.body


def test_every_flooded_tag_is_capped():
    body = b"<html><body>" + b"".join(b"<span " + b" ".join(b"b%d" % i for i in range(300)) + b">s</span>"
                                      for _ in range(5)) + b"</body></html>"
    guarded = guard_html(body, max_attributes=200)
    assert guarded.capped_tags == 5 and guarded.attributes == 500
    assert all(len(span.attrib) == 200 for span in lxml.html.fromstring(guarded.body).iter("span"))


def test_tags_past_the_page_cap_are_cut():
    body = b"<html><body>" + b"<p>x</p>" * 10_000 + b"</body></html>"
    guarded = guard_html(body, max_tags=1000)
    assert guarded.cut and guarded.body.count(b"<") <= 1000 and body.startswith(guarded.body)
    assert not guard_html(body, max_tags=0).changed and not guard_html(body, max_attributes=0, max_tags=0).changed


@pytest.mark.timeout(20)
@pytest.mark.parametrize("body", [b"<a" * 500_000, b"<a " + b"x=" * 500_000, b"<a " + b'x="<a ' * 200_000,
                                  b'<a x="' + b"<b y='" * 200_000, b"<" * 1_000_000])
def test_inputs_built_against_the_scan_do_not_stall_it(body):
    # each ~1 MB; a scan that went back over the page from every tag start would run for hours
    guard_html(body, max_attributes=1000)
