"""Seed 003 chapter 2 worked examples: hyperlink distance, DOM distance, link order, n-CS."""

from __future__ import annotations

from lxml import html

from newscrawl.template.topology import (
    Link, dom_distance, dom_path, find_cs, hyperlink_distance, link_relevance_key, page_links, sort_links,
)


def test_hyperlink_distances_of_definition_examples() -> None:
    # Def. 2.2.5 examples under Figure 2.7
    assert hyperlink_distance(("research", "maths"), ("research", "maths")) == 0
    assert hyperlink_distance(("research", "maths"), ("research", "maths", "geometry")) == 1
    assert hyperlink_distance(("research", "maths"), ("research",)) == -1
    assert hyperlink_distance(("research", "maths"), ("research", "physics", "dynamics")) == -1
    assert hyperlink_distance(("research", "maths"), ("www.upv.es", "research")) == -2


def test_hyperlink_distances_of_example_2_2_6() -> None:
    news = "http://www.bbc.com/news"
    # item 1 is written with its arguments swapped in the seed; the distance from the news page
    # to the technology page is +1 (a subdirectory)
    assert hyperlink_distance(news, "http://www.bbc.com/news/technology") == 1
    assert hyperlink_distance(news, "http://www.bbc.com") == -1
    assert hyperlink_distance(news, "http://www.bbc.com/news/world/europe/") == 2
    assert hyperlink_distance(news, "http://www.bbc.com/weather") == -1
    assert hyperlink_distance(news, "http://www.bbc.com/sport/0/formula1/26599556") == -1


def test_resource_names_are_ignored() -> None:
    key = "http://www.upv.es/research/math/index.html"
    assert hyperlink_distance(key, "http://www.upv.es/research/math/pi.html") == 0
    assert hyperlink_distance(key, "http://www.upv.es/research/math/news/computers.html") == 1
    assert hyperlink_distance(key, "http://www.upv.es/sport/") == -2


BBC = ["http://www.bbc.com/news/", "http://www.bbc.com/news/world/europe/", "http://www.bbc.com",
       "http://www.bbc.com/news/uk/", "http://www.bbc.com/sport/0/football/28497920/",
       "http://www.bbc.com/news/also_in_the_news/"]


def test_hyperlink_distances_and_link_relevance_of_example_2_2_13() -> None:
    ref = BBC[0]
    assert [hyperlink_distance(ref, u) for u in BBC[1:]] == [2, -1, 1, -1, 1]
    order = sorted(BBC[1:], key=lambda u: link_relevance_key(hyperlink_distance(ref, u)))
    assert order[:2] == ["http://www.bbc.com/news/uk/", "http://www.bbc.com/news/also_in_the_news/"]
    assert order[2] == "http://www.bbc.com/news/world/europe/"
    assert set(order[3:]) == {"http://www.bbc.com", "http://www.bbc.com/sport/0/football/28497920/"}


# Figure 2.15: BODY CONTENT DIV P SPAN and BODY CONTENT DIV DIV IMG, the two DIVs distinct
FIG_2_15 = "<html><body><content><div><p><span>s</span></p></div><div><div><img></div></div></content></body></html>"


def test_dom_distance_of_example_2_2_11() -> None:
    root = html.document_fromstring(FIG_2_15)
    span, img = root.find(".//span"), root.find(".//img")
    body = root.find("body")
    sp = dom_path(span)[dom_path(span).index(body):]
    ip = dom_path(img)[dom_path(img).index(body):]
    assert [e.tag for e in sp] == ["body", "content", "div", "p", "span"]
    assert [e.tag for e in ip] == ["body", "content", "div", "div", "img"]
    assert dom_distance(sp, ip) == 6
    assert dom_distance(sp, sp) == 0


# A tree with the pairwise DOM distances listed in Example 2.2.15 (Figure 2.16 is not in the
# seed's text): A1 europe, A2 bbc.com, A3 uk, A4 sport, A5 also_in_the_news.
FIG_2_16 = """<html><body>
<div><div><a id="A2" href="http://www.bbc.com">home</a><span><a id="A3" href="http://www.bbc.com/news/uk/">uk</a></span></div></div>
<div><a id="A1" href="http://www.bbc.com/news/world/europe/">europe</a></div>
<div><p><a id="A4" href="http://www.bbc.com/sport/0/football/28497920/">sport</a></p></div>
<div><p><a id="A5" href="http://www.bbc.com/news/also_in_the_news/">also</a></p></div>
</body></html>"""


def test_dom_distances_and_link_order_of_example_2_2_15() -> None:
    root = html.document_fromstring(FIG_2_16)
    a = {e.get("id"): dom_path(e) for e in root.iter("a")}
    expected = {("A3", "A1"): 6, ("A3", "A2"): 3, ("A3", "A4"): 7, ("A3", "A5"): 7, ("A5", "A1"): 5,
                ("A5", "A2"): 6, ("A5", "A4"): 6, ("A2", "A1"): 5, ("A2", "A4"): 6, ("A4", "A1"): 5}
    for (x, y), d in expected.items():
        assert dom_distance(a[x], a[y]) == d, (x, y)
    links = page_links(root, "http://www.bbc.com/news/")
    order = [link.url for link in sort_links(links, "http://www.bbc.com/news/")]
    assert order == ["http://www.bbc.com/news/also_in_the_news/", "http://www.bbc.com/news/uk/",
                     "http://www.bbc.com/news/world/europe/", "http://www.bbc.com/sport/0/football/28497920/",
                     "http://www.bbc.com/"]


def test_page_links_stay_on_the_registrable_domain_without_self_links() -> None:
    root = html.document_fromstring(
        '<html><body><a href="/a/">a</a><a href="http://news.example.com/b/">b</a><a href="http://other.org/">x</a>'
        '<a href="/k/">self</a><a href="/a/#top">dup</a><a href="/f.pdf">pdf</a></body></html>')
    urls = [link.url for link in page_links(root, "http://www.example.com/k/")]
    assert urls == ["http://www.example.com/a/", "http://news.example.com/b/"]


def test_page_links_skip_malformed_hrefs() -> None:
    """urljoin raises on an unclosed or non-IP bracketed host; canonicalize on a non-numeric port:
    the one link is skipped, the page's other links stay (before, the template search lost the page)."""
    root = html.document_fromstring(
        '<html><body><a href="http://[bad/x/">x</a><a href="http://[ua]/y/">y</a><a href="http://www.example.com:zz/z/">z</a>'
        '<a href="/a/">a</a></body></html>')
    assert [link.url for link in page_links(root, "http://www.example.com/k/")] == ["http://www.example.com/a/"]


def _graph_links(urls: list[str]) -> list[Link]:
    return [Link(u, (None, object())) for u in urls]


def test_n_cs_stops_at_n_and_keeps_the_current_link() -> None:
    # a, b, c, d are menu pages linking each other except d; x links nobody
    site = {"http://s.com/a/": ["b", "c", "x"], "http://s.com/b/": ["a", "c"], "http://s.com/c/": ["a", "b", "d"],
            "http://s.com/d/": ["a"], "http://s.com/x/": []}
    graph = {u: [f"http://s.com/{v}/" for v in vs] for u, vs in site.items()}
    loads: list[str] = []

    def load(url: str) -> list[str]:
        loads.append(url)
        return graph[url]

    links = _graph_links(["http://s.com/x/", "http://s.com/d/", "http://s.com/a/", "http://s.com/b/", "http://s.com/c/"])
    search = find_cs("http://s.com/k/", links, load, n=3)
    assert sorted(search.best) == ["http://s.com/a/", "http://s.com/b/", "http://s.com/c/"]
    assert loads[-1] == "http://s.com/c/"  # stopped as soon as the 3-CS was complete
    smaller = find_cs("http://s.com/k/", links[:4], load, n=3)
    assert sorted(smaller.best) == ["http://s.com/a/", "http://s.com/b/"]  # best m-CS, m = 2
