"""Second copies of a block leave the body (newscrawl.extract.copies); real repeats stay."""

from __future__ import annotations

from newscrawl.extract import copies, extract
from newscrawl.extract.copies import MIN_COPY_CHARS, without_copies
from newscrawl.page import Page

PARAS = [
    "The city council voted on Tuesday to expand the bicycle lane network across the northern districts.",
    "Supporters said the plan would cut traffic and make streets safer for children walking to school.",
    "Opponents argued that the cost had been underestimated and that shop owners were not consulted.",
    "The first new lanes are expected to open next spring, according to the transport department.",
]


def _doc(body: str) -> str:
    return (f"<html><head><title>Council expands bike lanes</title></head><body>{body}"
            "<footer><p>Contact us</p></footer></body></html>")


def _block(paras: list[str], cls: str) -> str:
    return f'<div class="{cls}">' + "".join(f"<p>{p}</p>" for p in paras) + "</div>"


def _all(page: Page) -> list[int]:
    return list(range(len(page.text_nodes)))


def _texts(page: Page, nodes: list[int]) -> list[str]:
    return [page.text_nodes[k].text for k in nodes]


def test_a_layout_for_narrow_screens_beside_the_wide_one_is_read_once():
    html = _doc("<main><h1>Council expands bike lanes</h1>" + _block(PARAS, "desktop")
                + _block(PARAS, "mobile") + "</main>")
    body = extract(html, "https://news.example.com/2024/05/bike-lanes").body
    assert body is not None
    for para in PARAS:
        assert body.count(para) == 1


def test_a_quoted_post_inside_a_reply_goes_and_the_reply_stays():
    post = ["I have been riding this bike for two years and the gears slip on every steep hill.",
            "Has anyone replaced the derailleur themselves, or should I take it to a shop?"]
    reply = "Take it to a shop: the hanger is probably bent, which a stand and a gauge show in minutes."
    page = Page.from_html(_doc(
        _block(post, "message") + '<div class="message"><blockquote class="quote">'
        + "".join(f"<p>{p}</p>" for p in post) + f"</blockquote><p>{reply}</p></div>"))
    texts = _texts(page, without_copies(page, _all(page)))
    assert texts.count(post[0]) == 1 and texts.count(post[1]) == 1
    assert reply in texts


def test_a_paragraph_repeated_inside_one_article_stays_twice():
    page = Page.from_html(_doc(f"<article><p>{PARAS[0]}</p><p>{PARAS[1]}</p><p>{PARAS[0]}</p>"
                               f"<p>{PARAS[1]}</p></article>"))
    assert without_copies(page, _all(page)) == _all(page)


def test_a_line_every_card_lists_stays_in_every_card():
    feature = "Professionally written by experts with experience in your field, checked twice."
    cards = "".join(f'<div class="card"><h3>Plan {name}</h3><ul><li>{feature}</li><li>{price}</li></ul></div>'
                    for name, price in (("Basic", "$29 once"), ("Pro", "$49 once"), ("Team", "$99 once")))
    page = Page.from_html(_doc(cards))
    assert _texts(page, without_copies(page, _all(page))).count(feature) == 3


def test_blocks_under_the_size_floor_or_of_one_text_stay():
    short = ["Sunny, 21°C", "Wind 10 km/h"]  # two texts, far under MIN_COPY_CHARS
    assert sum(map(len, short)) < MIN_COPY_CHARS
    one = [PARAS[0], PARAS[0]]  # one text twice inside each block
    page = Page.from_html(_doc(_block(short, "a") + _block(short, "b") + _block(one, "c") + _block(one, "d")))
    assert without_copies(page, _all(page)) == _all(page)


def test_only_nodes_the_body_kept_are_compared():
    # the two blocks differ only in a node the body does not keep (a share line pruned before)
    page = Page.from_html(_doc(_block(PARAS[:2] + ["Share on X"], "wide") + _block(PARAS[:2] + ["Share"], "narrow")))
    share = {k for k, tn in enumerate(page.text_nodes) if tn.text.startswith("Share")}
    kept = [k for k in _all(page) if k not in share]
    assert _texts(page, without_copies(page, kept)) == PARAS[:2] + ["Contact us"]


def test_thousands_of_look_alike_blocks_keep_the_first():
    page = Page.from_html(_doc("".join(_block(PARAS[:2], f"b{i}") for i in range(5000))))
    assert _texts(page, without_copies(page, _all(page))) == PARAS[:2] + ["Contact us"]


def test_the_nodes_compared_a_page_are_bounded(monkeypatch):
    monkeypatch.setattr(copies, "MAX_COMPARED_NODES", 4)  # two blocks of two nodes
    page = Page.from_html(_doc("".join(_block(PARAS[:2], f"b{i}") for i in range(5))))
    # the first block is read, the second dropped as its copy, and the budget ends there
    assert _texts(page, without_copies(page, _all(page))) == PARAS[:2] * 4 + ["Contact us"]
