"""NCE: separator node, link-density forest, LCS comment removal (seed 000 §3.4.1)."""

from __future__ import annotations

import random

from newscrawl.extract import extract
from newscrawl.extract.nce import NCEParams, find_separator, lcs_len, relevant_content
from newscrawl.page import Page

PARAS = [
    "The city council voted on Tuesday to expand the bicycle lane network across the northern districts.",
    "Supporters said the plan would cut traffic and make streets safer for children walking to school.",
    "Opponents argued that the cost had been underestimated and that shop owners were not consulted.",
    "The first new lanes are expected to open next spring, according to the transport department.",
]


def article_page(comments: int = 0, sidebar: bool = True, inside: bool = False) -> str:
    nav = "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(8))
    side = "".join(f'<li><a href="/r{i}">Related story number {i} about something else</a></li>' for i in range(6))
    body = "".join(f"<p>{p}</p>" for p in PARAS)
    comm = "".join(
        f'<div class="c"><div class="who">user{i} wrote on 12 March 2024 at 10:{i:02d}</div>'
        f"<div class=txt>I think opinion {i} is {'very ' * (i % 4)}interesting.</div></div>"
        for i in range(comments))
    return (f"<html><head><title>Council expands bike lanes - City News</title></head><body>"
            f"<header><ul class=menu>{nav}</ul></header>"
            f'<div class="wrap"><div class="story"><h1>Council expands bike lanes</h1>'
            f'<div class="meta">By Ann Lee, 12 March 2024</div>{body}'
            + (f'<div class="talk">{comm}</div></div>' if inside else "</div>")
            + (f'<aside><ul>{side}</ul></aside>' if sidebar else "")
            + ("" if inside else f'<div class="talk">{comm}</div>') + '</div><footer><a href="/about">About us</a></footer></body></html>')


def _texts(page: Page, nodes: list[int]) -> str:
    return " ".join(page.text_nodes[k].text for k in nodes)


def test_separator_is_the_story_container():
    page = Page.from_html(article_page())
    u = find_separator(page)
    assert u is not None and u.get("class") == "story"


def test_relevant_content_keeps_paragraphs_drops_navigation():
    page = Page.from_html(article_page())
    rel = relevant_content(page)
    text = _texts(page, rel.nodes)
    for p in PARAS:
        assert p in text
    assert "Section 3" not in text and "Related story" not in text and "About us" not in text


def test_link_dense_children_are_dropped_from_the_forest():
    # the paragraphs and a link list sit side by side under one separator
    links = "".join(f'<a href="/{i}">Another link text {i}</a> ' for i in range(10))
    html = ("<html><body><div id=main>" + "".join(f"<p>{p}</p>" for p in PARAS)
            + f"<div class=more>{links}</div></div></body></html>")
    page = Page.from_html(html)
    rel = relevant_content(page)
    text = _texts(page, rel.nodes)
    assert PARAS[0] in text and "Another link text" not in text


def test_comment_section_is_removed():
    page = Page.from_html(article_page(comments=12, sidebar=False, inside=True))
    rel = relevant_content(page, NCEParams(beta6=1.01))
    assert "user1 wrote" in _texts(page, rel.nodes)  # inside the story: only the LCS graph finds it
    rel = relevant_content(page, NCEParams(min_before=0.0, unnamed_comments=True))
    text = _texts(page, rel.nodes)
    assert rel.comment_cut is not None
    assert PARAS[-1] in text
    assert "user1 wrote" not in text and "opinion 4" not in text
    # by default an unnamed section ("talk") is reported but stays in the relevant content
    rel = relevant_content(page, NCEParams(min_before=0.0))
    assert rel.comment_cut is not None and "user1 wrote" in _texts(page, rel.nodes)


def test_a_forum_thread_keeps_replies_named_like_comments():
    # vBulletin, Invision and Vanilla put every post of a thread in an element named "comment"
    opening = "My bike lane question: which district gets the new lanes first, and when will the works begin?"
    posts = [f'<div class="comment op"><div class="who">starter asked</div><p>{opening}</p><p>{PARAS[0]}</p></div>']
    posts += [f'<div class="comment" id="comment-{i}"><div class="who">user{i} replied</div>'
              f"<p>Reply {i}: the northern districts come first, {'as far as I know ' * (i % 3)}"
              f"according to the council's published plan for next spring.</p></div>" for i in range(12)]
    html = f'<html><body><h1>Bike lanes</h1><div class="comments">{"".join(posts)}</div></body></html>'
    page = Page.from_html(html)
    assert "Reply 7" not in _texts(page, relevant_content(page).nodes)  # a comment section elsewhere
    kept = _texts(page, relevant_content(page, NCEParams(discussion=True)).nodes)
    assert opening in kept and "Reply 0" in kept and "Reply 11" in kept


def test_live_commentary_named_with_comment_is_the_content():
    # a match's running text in "live-match-comment" blocks: commentary, not readers' comments
    minutes = "".join(
        f'<div class="live-match-comment"><div class="live-match-comment-time">{90 - 5 * i}\'</div>'
        f'<div class="live-match-comment-body">Minute {90 - 5 * i}: {PARAS[i % len(PARAS)]}</div></div>'
        for i in range(12)
    )
    html = f'<html><body><h1>Lorient vs Lyon</h1><div class="live-match-comments">{minutes}</div></body></html>'
    page = Page.from_html(html)
    kept = _texts(page, relevant_content(page).nodes)
    assert "Minute 90" in kept and "Minute 35" in kept
    # a comments platform's widget whose name starts with "live" is still a comment section
    widget = html.replace("live-match-comments", "livefyre-comments").replace("live-match-comment", "fyre-comment")
    page = Page.from_html(widget)
    assert "Minute 90" not in _texts(page, relevant_content(page).nodes)


def test_live_commentary_names_are_read_name_by_name():
    from newscrawl.page import live_text_names

    assert live_text_names("x live-match-comments") == "x livetext"
    assert live_text_names(" sp-live_comment other") == " livetext other"
    assert live_text_names("box match-commentary") == "box livetext"
    for names in ("comments", "livefyre-comments", "comment-live", "deliver-comments"):
        assert live_text_names(names) == names
    hostile = "live-" * 40_000 + "omment"  # no "comment" after a live word: left as it is
    assert live_text_names(hostile) == hostile


def test_the_chrome_around_posts_goes_on_a_thread():
    posts = "".join(
        f'<div class="post"><div class="user-info">user{i} Joined 2019 Messages 4,21{i}</div>'
        f'<div class="votes"><span class="vote-count">{i * 7}</span></div>'
        f"<p>Post {i}: {PARAS[i % len(PARAS)]}</p>"
        f'<div class="signature">Sent from my bicycle, {"every day " * (i % 3)}rain or shine</div></div>'
        for i in range(8))
    page = Page.from_html(f'<html><body><h1>Bike lanes</h1><div class="thread">{posts}</div></body></html>')
    plain = _texts(page, relevant_content(page).nodes)
    assert "Sent from my bicycle" in plain and "Joined 2019" in plain
    kept = _texts(page, relevant_content(page, NCEParams(post_chrome=True)).nodes)
    assert "Post 0" in kept and "Post 7" in kept
    for chrome in ("Sent from my bicycle", "Joined 2019", "user3"):
        assert chrome not in kept


def test_a_dialog_on_screen_is_not_the_content_of_a_page_of_teasers():
    banner = ("We and our partners use cookies and similar technologies to recognise visitors, remember "
              "their preferences, measure advertising and analyse traffic on this website.")
    # teaser summaries under beta3 (80 characters): without the banner NCE looks again with shorter leaves
    teasers = "".join(f'<li><a href="/s{i}">Story {i} headline</a>'
                      f"<p>Summary {i}: {PARAS[i % len(PARAS)][:55]}.</p></li>" for i in range(12))
    dialog = f'<div class="fides-banner" role="alertdialog" aria-modal="true"><p>{banner}</p><p>{banner}</p></div>'
    html = f"<html><body><main><ul>{teasers}</ul></main>{dialog}</body></html>"
    page = Page.from_html(html)
    assert len(page.open_dialogs) == 1
    assert banner in _texts(page, relevant_content(page, NCEParams(dialogs=False)).nodes)
    assert banner not in _texts(page, relevant_content(page).nodes)
    # a drawer that aria-hidden keeps closed is not on screen: it stays a part of the page
    drawer = Page.from_html(html.replace('aria-modal="true"', 'aria-hidden="true"'))
    assert not drawer.open_dialogs


def test_comment_cut_must_leave_most_of_the_text_before_it():
    # a "comment section" that would take more than 1 - min_before of the text is kept
    page = Page.from_html(article_page(comments=12, sidebar=False, inside=True))
    rel = relevant_content(page, NCEParams(min_before=0.9, unnamed_comments=True))
    assert rel.comment_cut is None and "user1 wrote" in _texts(page, rel.nodes)


def test_comments_outside_the_separator_are_not_relevant():
    page = Page.from_html(article_page(comments=12))
    assert "user1 wrote" not in _texts(page, relevant_content(page).nodes)


def test_no_separator_returns_whole_page():
    page = Page.from_html("<html><body><a href=/>Home</a> <span>short</span></body></html>")
    rel = relevant_content(page)
    assert rel.separator is None and rel.nodes == list(range(len(page.text_nodes)))


def _lcs_dp(a: str, b: str) -> int:
    prev = [0] * (len(b) + 1)
    for ch in a:
        cur = [0]
        for j, cb in enumerate(b):
            cur.append(prev[j] + 1 if ch == cb else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def test_bit_parallel_lcs_matches_dynamic_programming():
    rng = random.Random(7)
    for _ in range(200):
        a = "".join(rng.choice("abcde ") for _ in range(rng.randint(0, 40)))
        b = "".join(rng.choice("abcde ") for _ in range(rng.randint(0, 40)))
        assert lcs_len(a, b) == _lcs_dp(a, b)


def test_lcs_decision_with_early_exit_and_longer_masks_matches_dynamic_programming():
    """_lcs on masks of a longer text cut to n characters, asked "at least k?", answers on the same side
    of k as the full LCS (it may stop early), and without k gives the LCS itself."""
    from newscrawl.extract.nce import _bit_masks, _lcs

    rng = random.Random(13)
    for _ in range(3000):
        alphabet = rng.choice(["ab", "abcde ", "abcdefghijklmnop"])
        n = rng.randint(1, 70)
        a = "".join(rng.choice(alphabet) for _ in range(n + rng.randint(0, 20)))
        b = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, n)))
        exact = _lcs_dp(a[:n], b)
        assert _lcs(_bit_masks(a), n, b) == exact
        for k in (0, 0.7 * len(b), 0.7 * n, exact, exact + 0.5, exact + 1, rng.uniform(0, n)):
            assert (_lcs(_bit_masks(a), n, b, k) >= k) == (exact >= k)


def _pruned_by_tree_walk(page: Page, root, u, p: NCEParams) -> list[int]:
    """The tree-walk form of ``pruned`` (iterdescendants with lookups per element): the oracle
    for the array form, which picks the descendants with text from the Page's element list."""
    from newscrawl.extract.nce import _DENSE, _NAMED, INLINE, _left, _pruned_as

    drop, named, dense = [], [], []
    for el in root.iterdescendants():
        if not page.has(el) or el.tag in INLINE or not page.text_len(el):
            continue
        kind = _pruned_as(page, el, el.tag, page.link_density(el), root, u, p)
        if kind is _NAMED:
            named.append(page.text_range(el))
        elif kind is _DENSE:
            drop.append(page.text_range(el))
            dense.append(el)
    return _left(page, page.text_range(root), drop, named, dense, u, p)


def test_pruned_equals_the_tree_walk_on_random_pages(random_tag_soup):
    from newscrawl.extract.nce import pruned

    rng = random.Random(11)
    words = ["alpha", "beta gamma", "a longer sentence of running text here", "x", ""]
    tags = ["div", "p", "ul", "li", "a", "span", "nav", "aside", "h2", "table", "td", "cite", "em", "section"]
    names = ["", "nav", "share-bar", "content", "widget", "related-posts", "comments", "sr-only", "story"]
    checked = 0
    for _ in range(60):
        def opening(tag: str) -> str:
            attrs = f' class="{rng.choice(names)}"' if rng.random() < 0.4 else ""
            attrs += " hidden" if rng.random() < 0.05 else ""
            attrs += ' href="/x"' if tag == "a" else ""
            return f"<{tag}{attrs}>{rng.choice(words)}"

        html = random_tag_soup(rng, tags, rng.randint(20, 120), opening, lambda: rng.choice(words))
        page = Page.from_html(html, "http://127.0.0.1/p")
        for params in (NCEParams(), NCEParams(keep_prose=False, link_sentences=0), NCEParams(prune_boilerplate=False)):
            for root in page.elements[::3]:
                u = root.getparent() if page.has(root.getparent()) else root
                assert pruned(page, root, u, params) == _pruned_by_tree_walk(page, root, u, params)
                checked += 1
    assert checked > 1000


def _id_class(el) -> str:
    return (el.get("id") or "") + " " + (el.get("class") or "")


def _boilerplate_reading_each_name(page: Page, el, u, p: NCEParams) -> bool:
    """nce._boilerplate as it read the names (each test its own attribute reads), the reference for the
    version that reads tag, class and id once."""
    from newscrawl.extract import nce

    if not p.prune_boilerplate:
        return False
    if el.tag in nce._BOILERPLATE_TAGS or (p.hidden_names and nce._hidden_named(el.get("class") or "")):
        return 2 * page.text_len(el) < page.text_len(u)
    if p.consent_names and el.tag not in nce._HEADINGS and nce._consent_named(_id_class(el)):
        return 2 * page.text_len(el) < page.text_len(u)
    if not page.is_boilerplate(el):
        return (p.strong_names and nce._related_named(el.get("class") or "")
                and 2 * page.text_len(el) < page.text_len(u))
    names = _id_class(el)
    if el.tag in nce._HEADINGS:
        names = el.get("class") or ""
    if nce.BOILERPLATE_NAMES.search(nce._WIDGET.sub(" ", names)) is None:
        if not nce._WIDGET.search(names) or page.link_density(el) <= p.beta1:
            return False
    n = page.text_len(el)
    if 2 * n >= page.text_len(u):
        return False
    if p.strong_names and (nce._strong_named(el.get("class") or "") or nce._comment_id(el)):
        return True
    return n < p.beta2 or page.link_density(el) > p.beta1


def test_boilerplate_reads_names_once_as_it_read_them_each_time(random_tag_soup):
    from newscrawl.extract.nce import _boilerplate

    rng = random.Random(17)
    tags = ["div", "p", "nav", "aside", "h2", "section", "ul", "a", "footer", "span"]
    names = ["", "nav", "widget", "widget menu", "sr-only", "cookie-bar", "jp-relatedposts", "share-bar",
             "comments", "content has-sidebar", "story", "Sidebar Widget", "promo"]
    checked = 0
    for _ in range(40):
        def opening(tag: str) -> str:
            attrs = f' class="{rng.choice(names)}"' if rng.random() < 0.6 else ""
            attrs += f' id="{rng.choice(names)}"' if rng.random() < 0.3 else ""
            attrs += ' href="/x"' if tag == "a" else ""
            return f"<{tag}{attrs}>" + " ".join(rng.choice(["word", "more text here", "x"]) for _ in range(rng.randint(0, 30)))

        page = Page.from_html(random_tag_soup(rng, tags, rng.randint(20, 80), opening), "http://127.0.0.1/p")
        for params in (NCEParams(), NCEParams(strong_names=False, hidden_names=False, consent_names=False)):
            for el in page.elements[1:]:
                u = page.elements[0]
                assert _boilerplate(page, el, u, params) == _boilerplate_reading_each_name(page, el, u, params)
                checked += 1
    assert checked > 1000


def test_links_inside_text_written_between_br_stay_in_their_sentences() -> None:
    # the text container holds its lines directly, separated by <br>, with links inside the sentences
    lines = "".join(f"{p} <br>" for p in PARAS[1:])
    html = ('<html><body><h1>Council expands bike lanes</h1><div class="text">The city council met the mayor '
            '<a href="/topic/mayor">Jane Roe</a>, who voted on Tuesday to expand the bicycle lanes. <br>'
            f'{lines}</div><ul class="nav"><li><a href="/a">Home</a></li><li><a href="/b">World</a></li></ul>'
            "</body></html>")
    page = Page.from_html(html)
    assert "Jane Roe" in _texts(page, relevant_content(page).nodes)
    assert "the mayor Jane Roe, who voted" in extract(html, "https://news.example.com/2024/03/12/lanes").body
    assert "Jane Roe" not in _texts(page, relevant_content(page, NCEParams(inline_text=False)).nodes)
    # a container of links with no prose of its own stays a link list
    menu = Page.from_html(html.replace("who voted on Tuesday to expand the bicycle lanes.", ""))
    assert "Home" not in _texts(menu, relevant_content(menu).nodes)


def test_the_separator_does_not_climb_over_a_link_dense_ticker() -> None:
    # a live ticker after the article: linked headlines and one expanded item with a long paragraph,
    # whose vote would widen the separator to the page around both
    story = "".join(f"<p>{p}</p>" for p in PARAS * 2)
    items = "".join(f'<div class="item"><a href="/news/{i}"><span>{i} minutes ago</span> <span>Headline of another '
                    f"story number {i} of the day, with many words</span></a></div>" for i in range(2))
    live = ('<div class="item"><h3>Three hundred cooperative flats</h3><div class="desc"><p>'
            + "Two houses with up to 266 cooperative flats will be built along the street, the council said. " * 3
            + "</p></div></div>")
    html = (f'<html><body><div class="page"><div class="wrapper"><div class="article"><h1>Council expands bike '
            f'lanes</h1>{story}</div></div><div class="wrapper"><h3>Happening now</h3><div class="timeline">'
            f"{items}{live}{items}</div></div></div></body></html>")
    assert find_separator(Page.from_html(html)).get("class") == "article"
    assert find_separator(Page.from_html(html), NCEParams(climb_links=False)).get("class") == "page"
