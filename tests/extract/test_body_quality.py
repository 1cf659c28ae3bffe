"""Body quality behaviours added for issue 4's body F1 work (hand-built pages)."""

from __future__ import annotations

import pytest

from newscrawl.extract.body import paragraphs
from newscrawl.extract.nce import NCEParams, find_separator, relevant_content
from newscrawl.page import Page

PARAS = [
    "The city council voted on Tuesday to expand the bicycle lane network across the northern districts.",
    "Supporters said the plan would cut traffic and make streets safer for children walking to school.",
    "Opponents argued that the cost had been underestimated and that shop owners were not consulted.",
    "The first new lanes are expected to open next spring, according to the transport department.",
]


def _page(body: str) -> Page:
    return Page.from_html(f"<html><head><title>T</title></head><body>{body}</body></html>")


def _texts(page: Page, nodes: list[int]) -> str:
    return " ".join(page.text_nodes[k].text for k in nodes)


# --- word breaks between inline runs ------------------------------------------------------------
def test_whitespace_only_runs_between_inline_elements_keep_words_apart():
    page = _page('<p><span class="k">typedef</span> <span class="t">uint32_t</span>\n<span>cp;</span></p>')
    assert paragraphs(page, range(len(page.text_nodes))) == ["typedef uint32_t cp;"]
    # preformatted: the newline between two highlighted runs ends a line
    page = _page('<pre><span class="k">typedef</span> <span class="t">uint32_t</span>\n<span>cp;</span></pre>')
    assert paragraphs(page, range(len(page.text_nodes))) == ["typedef uint32_t", "cp;"]


def test_markup_without_whitespace_still_joins_a_word():
    page = _page("<p>H<b>ello</b> w<i><b>or</b></i>ld and <a href=/x>more</a><span>!</span></p>")
    assert paragraphs(page, range(len(page.text_nodes))) == ["Hello world and more!"]


def test_whitespace_inside_a_nested_inline_element_counts():
    page = _page("<p><span><b>red</b> </span><span><i>green</i></span></p>")
    assert paragraphs(page, range(len(page.text_nodes))) == ["red green"]


def test_a_line_break_wrapped_in_its_own_element_starts_a_line():
    page = _page("<p><span>Compact Bench</span><span><br></span><span>Price:</span><span> $299</span>"
                 "<br> <b>A solid bench.</b></p>")
    assert paragraphs(page, range(len(page.text_nodes))) == ["Compact Bench", "Price: $299", "A solid bench."]


def test_preformatted_text_keeps_its_lines():
    page = _page("<p>Run:</p><pre>$ hg clone <b>public</b> test-repo\nupdating to branch default\n\n0 files   updated</pre>")
    assert paragraphs(page, range(len(page.text_nodes))) == [
        "Run:", "$ hg clone public test-repo", "updating to branch default", "0 files updated"]


# --- comment graph --------------------------------------------------------------------------------
def _story(extra: str, tail: str = "") -> str:
    return ('<div class="story"><h1>Council expands bike lanes</h1>'
            + "".join(f"<p>{p}</p>" for p in PARAS) + extra + "</div>" + tail)


def test_tables_and_code_blocks_are_not_a_comment_section():
    # rows of a table and highlighted code blocks repeat their structure; they are article content
    rows = "".join(f"<tr><td><div>Week {i}</div><div>Rest, run easy {20 + i} min</div></td></tr>" for i in range(6))
    code = "".join(f'<div class="highlight"><pre><span>var builder{i} = Factory.Create();</span></pre></div>'
                   for i in range(4))
    page = _page(_story(f"<table>{rows}</table>{code}<p>{PARAS[0]} Again.</p>"))
    rel = relevant_content(page, NCEParams(min_before=0.0, unnamed_comments=True))
    text = _texts(page, rel.nodes)
    assert rel.comment_cut is None
    assert "Week 5" in text and "builder3" in text
    # the old behaviour (candidates inside tables and code) cuts them away
    old = relevant_content(page, NCEParams(min_before=0.0, skip_tabular=False, unnamed_comments=True))
    assert old.comment_cut is not None and "builder3" not in _texts(page, old.nodes)


def _comments(n: int) -> str:
    return "".join(
        f'<li class="item"><div class="who">reader{i} says 12 March 2024 at 10:{i:02d}</div>'
        f"<div class=txt>I think opinion {i} is {'very ' * (i % 4)}interesting and worth a long reply here.</div></li>"
        for i in range(n))


def test_a_section_named_comments_is_cut_even_when_it_outweighs_the_article():
    page = _page(_story(f'<div id="comments"><ol class="thread">{_comments(30)}</ol></div>'))
    rel = relevant_content(page)
    text = _texts(page, rel.nodes)
    assert rel.comment_cut is not None
    assert PARAS[-1] in text and "reader3 says" not in text
    assert relevant_content(page, NCEParams(named_comments=False)).comment_cut is None


def test_an_unnamed_long_repeating_section_is_still_kept():
    # without a comment-like name the min_before rule protects the text (it may be the article)
    page = _page(_story(f'<div class="more"><ol class="thread">{_comments(30)}</ol></div>'))
    rel = relevant_content(page)
    assert rel.comment_cut is None and "reader3 says" in _texts(page, rel.nodes)


# --- separator widening (climb) ---------------------------------------------------------------
_LINES = [
    "Residents packed the hall on Monday evening, many of them carrying hand-made signs about the new bus routes.",
    "According to the transport office, ridership on the northern lines has fallen by a fifth since last spring.",
    "Shop owners along the high street worry that losing parking spaces will drive their customers elsewhere.",
    "Cycling groups welcomed the decision but asked for protected junctions rather than painted lines alone.",
    "Engineers expect construction to begin in March, weather permitting, and to last roughly eighteen months.",
    "The mayor promised quarterly updates and an independent review once the first phase has been completed.",
    "Two schools near the river will get new crossings, which parents have demanded for more than a decade.",
    "Funding comes partly from a regional grant that must be spent before the end of the next financial year.",
    "Critics noted that a similar scheme in a neighbouring town ran well over budget and was finished late.",
    "Bus drivers' union representatives said they had not been consulted on the revised timetable at all.",
    "Local historians asked that the old tram rails under Market Square be documented before any digging starts.",
    "Emergency services confirmed that response times were modelled and would not be affected by the changes.",
    "A public exhibition of the detailed drawings opens at the library next week and runs until mid-October.",
    "Several councillors abstained, saying the consultation period had been too short for such a large project.",
]


def _sentence(tag: str, i: int) -> str:
    """A distinct ~105-character sentence (a long leaf); no two blocks look alike to the LCS graph."""
    return _LINES[(0 if tag == "lead" else 6 + 2 * int(tag.split()[-1])) + i] + f" ({tag})"


def _sections(kind: str, n: int) -> str:
    return "".join(f'<div class="{kind}"><div class="inner">'
                   + "".join(f"<p>{_sentence(f'{kind} {s}', i)}</p>" for i in range(2)) + "</div></div>"
                   for s in range(n))


def _split_article(extra: str) -> str:
    nav = "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(8))
    lead = '<div class="lead"><div class="inner">' + "".join(
        f"<p>{_sentence('lead', i)}</p>" for i in range(6)) + "</div></div>"
    return (f'<header><ul class="menu">{nav}</ul></header><div class="main">{lead}{extra}</div>'
            '<footer><a href="/about">About us</a> <a href="/terms">Terms</a></footer>')


def test_an_article_split_into_small_sections_is_taken_whole():
    page = _page(_split_article(_sections("part", 4)))
    text = _texts(page, relevant_content(page).nodes)
    assert "lead" in text and "part 3" in text and "Section 3" not in text
    # without widening only the largest section is the content
    narrow = _texts(page, relevant_content(page, NCEParams(climb_gain=0.0)).nodes)
    assert "lead" in narrow and "part 3" not in narrow


def test_widening_ignores_comment_named_and_teaser_blocks():
    comments = '<div class="comment-list">' + _sections("reply", 4) + "</div>"
    page = _page(_split_article(comments))
    assert "reply 3" not in _texts(page, relevant_content(page).nodes)
    teasers = "".join(f'<li><div class="card"><h3><a href="/t{s}">Other story {s}</a></h3>'
                      + "".join(f"<p>{_sentence(f'teaser {s}', i)}</p>" for i in range(2)) + "</div></li>"
                      for s in range(4))
    page = _page(_split_article(f"<ul>{teasers}</ul>"))
    assert "teaser 3" not in _texts(page, relevant_content(page).nodes)


# --- linked headings ----------------------------------------------------------------------------
def test_a_linked_heading_inside_the_text_is_kept_and_a_link_list_is_not():
    links = "".join(f'<li><a href="/more{i}">Another story number {i}</a></li>' for i in range(6))
    page = _page('<div class="story">'
                 + "".join(f'<section><h3><a href="/tool{i}">Tool number {i}</a></h3><p>{_LINES[i]}</p></section>'
                           for i in range(4))
                 + f"<ul>{links}</ul></div>")
    text = _texts(page, relevant_content(page).nodes)
    assert "Tool number 3" in text and _LINES[3] in text and "Another story" not in text
    old = _texts(page, relevant_content(page, NCEParams(keep_headings=False)).nodes)
    assert "Tool number 3" not in old


# --- strong boilerplate class names ---------------------------------------------------------------
def test_a_long_newsletter_box_goes_but_a_section_id_slug_does_not_matter():
    box = ('<div class="newsletter-box"><p>Subscribe to our free daily newsletter with the best stories, guides and '
           "interviews from the city, delivered to your inbox every morning before breakfast.</p>"
           "<p>By subscribing you agree to our terms of service and privacy policy, and you can unsubscribe at "
           "any time with one click.</p></div>")
    slug = ('<section id="sharing-with-neighbours"><h2>Sharing with neighbours</h2>'
            + "".join(f"<p>{line}</p>" for line in _LINES[8:11]) + "</section>")
    page = _page('<div class="story">' + "".join(f"<p>{line}</p>" for line in _LINES[:6]) + box + slug + "</div>")
    text = _texts(page, relevant_content(page).nodes)
    assert "Subscribe to our free daily" not in text
    assert _LINES[5] in text and _LINES[8] in text  # an id that slugs a heading is not a class name
    kept = _texts(page, relevant_content(page, NCEParams(strong_names=False)).nodes)
    assert "Subscribe to our free daily" in kept  # long and link-free: the size test keeps it


def test_a_cookie_bar_named_by_its_id_goes_whatever_its_size():
    # consent plug-ins name the banner by id, glued or camel-cased; its policy text is long and link-free
    policy = ("<p>We use cookies on our website to give you the most relevant experience by remembering your "
              "preferences and repeat visits, and to measure how the site is used by our visitors.</p>"
              "<p>Necessary cookies are absolutely essential for the website to function properly and are stored "
              "in your browser; other cookies are stored only with your consent.</p>")
    for ident in ("cookie-law-info-bar", "cookiePolicy", "onetrust-consent-sdk"):
        page = _page('<div class="story">' + "".join(f"<p>{line}</p>" for line in _LINES[:6])
                     + f'<div id="{ident}">{policy}</div></div>')
        text = _texts(page, relevant_content(page).nodes)
        assert _LINES[5] in text and "We use cookies" not in text, ident
        kept = _texts(page, relevant_content(page, NCEParams(consent_names=False)).nodes)
        assert "We use cookies" in kept  # long and link-free: the size test alone keeps it
    # a story about cookies, named for it, is the content: the half-of-the-separator test keeps it
    page = _page('<div class="story"><div class="cookie-recipe">' + "".join(f"<p>{line}</p>" for line in _LINES[:6])
                 + '</div><p>Serve warm.</p></div>')
    assert _LINES[3] in _texts(page, relevant_content(page).nodes)


def test_related_glued_to_what_it_relates_is_a_strong_name():
    # WordPress/Jetpack "jp-relatedposts", TYPO3 "ce_relatedArticles": the word is glued to the next
    cards = "".join(f"<p>{line}</p>" for line in _LINES[8:10])
    box = f'<div class="jp-relatedposts"><h3>Similar posts</h3>{cards}</div>'
    page = _page('<div class="story">' + "".join(f"<p>{line}</p>" for line in _LINES[:6]) + box + "</div>")
    text = _texts(page, relevant_content(page).nodes)
    assert _LINES[5] in text and "Similar posts" not in text and _LINES[8] not in text
    assert _LINES[8] in _texts(page, relevant_content(page, NCEParams(strong_names=False)).nodes)
    # an unrelated word that starts alike is no name of it
    page = _page('<div class="story">' + "".join(f"<p>{line}</p>" for line in _LINES[:6])
                 + box.replace("jp-relatedposts", "relation-notes") + "</div>")
    assert _LINES[8] in _texts(page, relevant_content(page).nodes)


def test_an_unnamed_run_of_similar_items_is_reported_but_stays_in_the_content():
    # reference lists, parameter lists and spec grids repeat one shape and are the content
    refs = "".join(f"<li><div>Smith, J. ({2000 + i}). Bicycle lanes and the city, volume {i}.</div>"
                   f"<div>Retrieved 1 May 2015.</div></li>" for i in range(8))
    page = _page(_story(f"<ol>{refs}</ol>"))
    rel = relevant_content(page, NCEParams(min_before=0.0))
    assert rel.comment_cut is not None and "volume 7" in _texts(page, rel.nodes)
    cut = relevant_content(page, NCEParams(min_before=0.0, unnamed_comments=True))
    assert "volume 7" not in _texts(page, cut.nodes) and PARAS[-1] in _texts(page, cut.nodes)


def test_widening_counts_an_ancestor_that_also_holds_a_linked_heading():
    # the ancestor's own paragraphs are content even though a related box (a card) sits in it too
    related = '<div class="box"><h3><a href="/r">Another story</a></h3><p>Short teaser.</p></div>'
    page = _page(_split_article(f"<p>{_LINES[12]}</p><p>{_LINES[13]}</p>{related}"))
    text = _texts(page, relevant_content(page).nodes)
    assert _LINES[0] in text and _LINES[12] in text and _LINES[13] in text


# --- comment threads in the separator election ----------------------------------------------------
def _thread(n: int) -> str:
    return "".join(f'<li><div class="comment-body"><p>{_LINES[i % len(_LINES)]} Reply {i} adds a long remark '
                   f"about the plan and the consultation that went before it.</p></div></li>" for i in range(n))


def test_a_long_comment_thread_below_a_short_article_does_not_win_the_election():
    page = _page('<div class="story"><div class="text">' + "".join(f"<p>{line}</p>" for line in _LINES[:6])
                 + f'</div></div><div id="comments"><ol>{_thread(6)}</ol></div>')
    u = find_separator(page)
    assert u is not None and u.get("class") == "text"
    assert find_separator(page, NCEParams(comment_votes=1.0)) is not u  # unweighted, the thread takes over


def test_a_thread_before_everything_else_keeps_its_votes():
    # a forum: the posts come first, a cookie notice after them
    notice = "<div class='consent-text'><p>" + " ".join(_LINES[:2]) + "</p></div>"
    page = _page(f'<div id="comments"><ol>{_thread(12)}</ol></div>{notice}')
    assert find_separator(page).tag == "ol"


# --- lead paragraph between the headline and the relevant content -------------------------------
LEAD = ("Cyclists will get forty kilometres of protected lanes by 2026, the largest expansion the city "
        "has seen, after a narrow vote that split the governing coalition.")
CAPTION = "A cyclist rides along the new lane on Harbour Street during the morning rush hour. Photo: City Archive"


def test_a_lead_between_headline_and_content_joins_the_body_but_bylines_and_links_do_not():
    from newscrawl.extract import extract

    share = "".join(f'<li><a href="/share/{n}">Share on {n}</a></li>' for n in ("Facebook", "X", "Mail"))
    html = ("<html><head><title>Council expands bike lanes - City News</title></head><body>"
            '<header class="hero"><h1>Council expands bike lanes</h1>'
            f'<div class="abstract">{LEAD}</div><div class="meta">By Ann Smith</div><ul>{share}</ul>'
            f'<figure><img src="/lane.jpg"><figcaption>{CAPTION}</figcaption></figure></header>'
            '<div class="content">' + "".join(f"<p>{p}</p>" for p in PARAS * 4) + "</div></body></html>")
    article = extract(html, "https://news.example/bike-lanes")
    assert article.title == "Council expands bike lanes"
    lines = article.body.split("\n")
    assert lines[0] == LEAD and lines[1] == PARAS[0]
    assert "Ann Smith" not in article.body and "Share on" not in article.body and "Photo" not in article.body


def test_a_short_standfirst_joins_the_body_when_named_as_one():
    from newscrawl.extract import extract

    short = "The vote splits the governing coalition."  # under the 80 characters of an unnamed lead

    def page(block: str) -> str:
        return ("<html><head><title>Council expands bike lanes - City News</title></head><body>"
                f'<header class="hero"><h1>Council expands bike lanes</h1>{block}<div class="meta">By Ann Smith</div>'
                '</header><div class="content">' + "".join(f"<p>{p}</p>" for p in PARAS * 4) + "</div></body></html>")

    for name in ("standfirst", "article-dek", "post_subtitle", "summary"):
        body = extract(page(f'<p class="{name}">{short}</p>'), "https://news.example/bike-lanes").body
        assert body.split("\n")[:2] == [short, PARAS[0]], name
    # unnamed, or named so around a picture (whose credit line would pass), it is no lead
    assert short not in extract(page(f"<p>{short}</p>"), "https://news.example/bike-lanes").body
    pictured = f'<div class="lead"><img src="/lane.jpg"><span>{short}</span></div>'
    assert short not in extract(page(pictured), "https://news.example/bike-lanes").body


def test_a_newsletter_pitch_over_the_story_is_no_lead():
    from newscrawl.extract import extract

    pitch = "Sign up for our free newsletter and get the day's top stories delivered to your inbox every morning."

    def page(box_class: str, head: str = "") -> str:
        box = f'<div class="{box_class}"><h3>Get the Morning Briefing</h3><p>{pitch}</p><form><input></form></div>'
        return (f"<html><head><title>Council expands bike lanes - City News</title>{head}</head><body>"
                '<article><h1>Council expands bike lanes</h1><div class="content">' + box
                + "".join(f"<p>{p}</p>" for p in PARAS * 4) + "</div></article></body></html>")

    assert pitch not in extract(page("newsletter-signup"), "https://news.example/bike-lanes").body
    # a call-to-action box, which NCE prunes in a declared article
    declared = '<script type="application/ld+json">{"@type": "NewsArticle"}</script>'
    assert pitch not in extract(page("inline-cta", declared), "https://news.example/bike-lanes").body
    # the same block named as nothing stays text of the story
    assert pitch in extract(page("box"), "https://news.example/bike-lanes").body


def test_a_recipes_declared_ingredients_join_the_method_elected_as_the_body():
    from newscrawl.extract import extract

    items = ["1 large whole chicken", "2 tablespoons vegetable oil", "1 medium onion, chopped", "250 g rice"]
    steps = "".join(
        f"<li><p>Step {i}: roast, stir and simmer the rice with the stock until it is tender and golden, about "
        f"{10 + i} minutes more, then rest it.</p></li>"
        for i in range(6)
    )

    def page(prop: str) -> str:
        ingredients = "".join(f"<li{prop}>{item}</li>" for item in items)
        return (
            '<html><head><title>Roasted chicken with rice</title></head><body><div itemscope '
            'itemtype="https://schema.org/Recipe"><h1>Roasted chicken with rice</h1>'
            f'<div class="side"><ul>{ingredients}</ul></div><div class="method"><ol>{steps}</ol></div>'
            f'<div class="mobile"><ul>{ingredients}</ul></div></div></body></html>'
        )

    body = extract(page(' itemprop="recipeIngredient"'), "https://food.example/chicken").body
    assert body.split("\n")[:4] == items and "Step 5" in body and body.count(items[0]) == 1
    # without the markup the list beside the method is not the recipe's text to NCE
    assert items[0] not in extract(page(""), "https://food.example/chicken").body


def test_the_marked_article_body_is_pruned_like_nce_content():
    from newscrawl.extract import extract

    related = "".join(f'<li><a href="/story/{i}">Another story about the city number {i}</a></li>' for i in range(6))
    html = ("<html><head><title>Council expands bike lanes</title></head><body><h1>Council expands bike lanes</h1>"
            '<div itemprop="articleBody">' + "".join(f"<p>{p}</p>" for p in PARAS)
            + f'<div class="more"><ul>{related}</ul></div><div class="share-tools"><p>Share this story with '
            "your friends and neighbours today</p></div></div></body></html>")
    article = extract(html, "https://news.example/bike-lanes")
    assert article.provenance["body"]["method"] == "itemprop-articleBody"
    assert article.body.split("\n") == PARAS


def test_captioned_pictures_named_by_class_are_not_a_comment_section():
    caption = '<div class="wp-caption alignnone"><img src="/c.png"><p class="wp-caption-text">Courtesy of the city transport office</p></div>'
    body = "".join(f"<p>{p}</p>{caption}" for p in PARAS) + f"<p>{PARAS[1]} Finally.</p>"
    page = _page(f'<div class="story"><h1>Council expands bike lanes</h1>{body}</div>')
    rel = relevant_content(page, NCEParams(min_before=0.0, unnamed_comments=True))
    assert rel.comment_cut is None and "Finally." in _texts(page, rel.nodes)
    old = relevant_content(page, NCEParams(min_before=0.0, skip_tabular=False, unnamed_comments=True))
    assert old.comment_cut is not None and "Finally." not in _texts(page, old.nodes)


# --- round 5: lead of a marked article body, datelines, left-over last lines ----------------------
def test_a_lead_above_the_marked_article_body_joins_it_but_a_dateline_does_not():
    from newscrawl.extract import extract

    html = ("<html><head><title>Council expands bike lanes</title></head><body>"
            '<header><h1>Council expands bike lanes</h1><p class="standfirst">' + LEAD + "</p>"
            '<p class="meta">Published <time>12 March 2024</time> by Ann Smith, transport correspondent of '
            "the City News, with reporting from the northern districts</p></header>"
            '<div itemprop="articleBody">' + "".join(f"<p>{p}</p>" for p in PARAS) + "</div></body></html>")
    article = extract(html, "https://news.example/bike-lanes")
    assert article.provenance["body"]["method"] == "itemprop-articleBody"
    assert article.published == "2024-03-12"
    assert article.body.split("\n") == [LEAD] + PARAS


def test_a_short_last_line_announcing_removed_content_is_dropped():
    from newscrawl.extract import extract

    related = "".join(f'<li><a href="/story/{i}">Another story about the city number {i}</a></li>' for i in range(6))
    story = "".join(f"<p>{p}</p>" for p in PARAS * 3)
    html = ("<html><head><title>Council expands bike lanes</title></head><body><article>"
            f"<h1>Council expands bike lanes</h1>{story}<p><strong>Read more:</strong></p>"
            f"<ul>{related}</ul></article></body></html>")
    article = extract(html, "https://news.example/bike-lanes")
    assert article.body.split("\n")[-1] == PARAS[-1] and "Read more" not in article.body
    # the same short line at the very end of the content, with nothing removed after it, stays
    bare = html.replace(f"<ul>{related}</ul>", "")
    assert extract(bare, "https://news.example/bike-lanes").body.split("\n")[-1] == "Read more:"
    # a short sentence closing the story before the removed list is no label: it stays
    for closing in ("The Associated Press contributed to this report.", "Reporting by Ann Lee; Editing by Bo Chen",
                    "— Ann Lee, City Desk", "– Bo Chen"):
        credited = html.replace("<p><strong>Read more:</strong></p>", f"<p><em>{closing}</em></p>")
        assert extract(credited, "https://news.example/bike-lanes").body.split("\n")[-1] == closing
    # ... but a heading or a few words without a sentence's end are labels
    # (a tweet's attribution after a dash, with its handle and date, is no sign-off)
    for label in ("<h3>You might also like these stories.</h3>", "<p>More from the city desk</p>",
                  "<p>— Ann Lee (@annlee) March 3, 2024</p>"):
        labelled = html.replace("<p><strong>Read more:</strong></p>", label)
        assert extract(labelled, "https://news.example/bike-lanes").body.split("\n")[-1] == PARAS[-1]


def test_short_widget_cells_and_headings_with_slug_ids_are_kept_but_widget_link_lists_go():
    links = "".join(f'<li><a href="/tag/{i}">Topic number {i}</a></li>' for i in range(5))
    cells = "".join(f'<div class="elementor-widget-container"><p>{p}</p></div>' for p in PARAS)
    page = _page('<div class="entry"><h1>Council expands bike lanes</h1>'
                 '<div class="elementor-widget-container"><p>Short cell of a page builder.</p></div>'
                 f'{cells}<h3 id="nav-to-the-new-lanes">Navigating the new lanes</h3>{cells}'
                 f'<div class="widget"><ul>{links}</ul></div></div>')
    text = _texts(page, relevant_content(page).nodes)
    assert "Short cell of a page builder." in text and "Navigating the new lanes" in text
    assert "Topic number" not in text


def test_a_paragraph_sharing_a_wrapper_with_related_links_stays_but_teaser_summaries_do_not():
    related = "".join(f'<li><a href="/story/{i}">Another story about the city number {i} and more</a></li>'
                      for i in range(8))
    cards = "".join(f'<li><a href="/card/{i}"><h3>Card {i}</h3><p>{PARAS[i]}</p></a></li>' for i in range(2))
    teasers = "".join(f'<div><a href="/t/{i}">Teaser headline {i} about the lanes</a><p>Summary {i}: {PARAS[i]}</p></div>'
                      for i in range(2))
    last = "The mayor said the network would be reviewed after its first full year of operation."
    page = _page('<div class="story"><h1>Council expands bike lanes</h1>' + "".join(f"<p>{p}</p>" for p in PARAS * 2)
                 + f'<div class="wrap"><p>{last}</p><ul>{related}</ul><ul>{cards}</ul>{teasers}</div></div>')
    text = _texts(page, relevant_content(page).nodes)
    assert last in text
    assert "Another story" not in text and "Card 0" not in text and "Summary 0" not in text
    assert last not in _texts(page, relevant_content(page, NCEParams(keep_prose=False)).nodes)


def test_nav_aside_and_footer_elements_inside_the_content_are_pruned_whatever_their_size():
    pager = '<nav id="detPagination"><span>Back to the overview of all our stories about city transport and the lanes</span></nav>'
    box = "<aside><p>Pull quote: the largest expansion the city has seen, after a narrow vote in the council</p></aside>"
    foot = "<footer><p>Ann Smith covers transport and urban planning for the City News since the year 2015.</p></footer>"
    page = _page('<div class="story"><h1>Council expands bike lanes</h1>' + "".join(f"<p>{p}</p>" for p in PARAS * 2)
                 + pager + box + foot + "</div>")
    text = _texts(page, relevant_content(page).nodes)
    assert PARAS[-1] in text
    assert "Back to the overview" not in text and "Pull quote" not in text and "Ann Smith" not in text


def test_a_block_named_as_the_page_footer_is_pruned_whatever_its_size_but_a_components_footer_stays():
    # a theme's footer region ("footer1", "site-footer") holds the publisher's address and legal
    # notice, over β2 and without links; a card's footer (BEM "spotlight__footer") is part of the card
    legal = ("<p>Valley News Cooperative, 94 Main Street, 54634 Springfield. Signed texts give the views of "
             "their authors. Reprinting the texts, whole or adapted, by any means, is allowed and encouraged "
             "on the terms of naming the source and keeping the free licence in every copy or derived work.</p>")
    card = ("<p>Product spotlight: the planner keeps every lane, signal and crossing of the network in one map "
            "that the council's engineers and the public can both read, and it updates every night with the "
            "counts of the day.</p>")
    for name in ("footer1", "site-footer", "site_footer"):
        page = _page('<div class="story"><h1>Council expands bike lanes</h1>'
                     + "".join(f"<p>{p}</p>" for p in PARAS * 3) + f'<div class="{name}">{legal}</div></div>')
        text = _texts(page, relevant_content(page).nodes)
        assert PARAS[-1] in text and "Reprinting" not in text, name
    page = _page('<div class="story"><h1>Council expands bike lanes</h1>' + "".join(f"<p>{p}</p>" for p in PARAS * 3)
                 + f'<div class="spotlight"><section class="spotlight__footer">{card}</section></div></div>')
    assert "Product spotlight" in _texts(page, relevant_content(page).nodes)


def test_aria_roles_of_navigation_sidebars_and_footers_prune_like_their_elements():
    # role="navigation"/"complementary"/"contentinfo"/"search" say what <nav>, <aside> and <footer> say
    pager = ('<div role=" Navigation pager"><span>Back to the overview of all our stories about city transport '
             "and the lanes</span></div>")
    box = ('<section role="complementary"><p>Pull quote: the largest expansion the city has seen, after a narrow '
           "vote in the council</p></section>")
    foot = ('<div role="contentinfo"><p>Ann Smith covers transport and urban planning for the City News since '
            "the year 2015.</p></div>")
    page = _page('<div class="story"><h1>Council expands bike lanes</h1>' + "".join(f"<p>{p}</p>" for p in PARAS * 2)
                 + pager + box + foot + "</div>")
    assert len(page.chrome_roles) == 3  # the role's first word, in any case
    text = _texts(page, relevant_content(page).nodes)
    assert PARAS[-1] in text
    assert "Back to the overview" not in text and "Pull quote" not in text and "Ann Smith" not in text
    kept = _texts(page, relevant_content(page, NCEParams(chrome_roles=False)).nodes)
    assert "Pull quote" in kept and "Ann Smith" in kept


def test_an_author_box_inside_the_text_leaves_the_body_but_one_per_listed_item_stays():
    from newscrawl.extract import extract

    bio = ("Ann Smith covers transport and urban planning for the City News; "
           "you can follow her reporting on the social networks and write to her.")
    byline = "By Ann Smith, City News transport correspondent, reporting from the council chamber today"
    html = ("<html><head><title>Council expands bike lanes</title></head><body><article>"
            f'<h1>Council expands bike lanes</h1><div class="article-byline"><p>{byline}</p></div>'
            + "".join(f"<p>{p}</p>" for p in PARAS * 3)
            + f'<div class="author-box"><p>{bio}</p></div></article></body></html>')
    body = extract(html, "https://news.example/bike-lanes").body
    assert PARAS[-1] in body and PARAS[0] in body
    assert "Ann Smith" not in body  # neither the bio nor the byline (not a lead either)
    # posts of a thread each name their author: that is the content, not a box beside it
    posts = "".join(f'<div class="post"><p class="author">Post by reader{i} on 12 March</p><p>{p}</p></div>'
                    for i, p in enumerate(PARAS * 2))
    html = ("<html><head><title>Bike lanes thread</title></head><body><div class='thread'>"
            f"<h1>Bike lanes thread</h1>{posts}</div></body></html>")
    body = extract(html, "https://forum.example/t/1").body
    assert "Post by reader0" in body and "Post by reader7" in body


def test_author_named_elements_without_body_text_do_not_count_as_listed_items():
    from newscrawl.extract import extract

    bio = ("Ann Smith covers transport and urban planning for the City News; "
           "you can follow her reporting on the social networks and write to her.")
    avatars = "".join(f'<span class="author-avatar"><img src="/a{i}.png" alt=""></span>' for i in range(3))
    html = ("<html><head><title>Council expands bike lanes</title></head><body><article>"
            f"<h1>Council expands bike lanes</h1>{avatars}" + "".join(f"<p>{p}</p>" for p in PARAS * 3)
            + f'<div class="author-box"><p>{bio}</p></div></article></body></html>')
    body = extract(html, "https://news.example/bike-lanes").body
    assert PARAS[-1] in body and "Ann Smith" not in body


def test_a_long_comment_box_under_half_of_the_content_is_pruned_but_a_thread_that_is_the_content_stays():
    rules = ("<ol>" + "".join(f"<li>Comments are moderated and published after review, rule {i}: be civil and "
                              "stay on the topic of the story.</li>" for i in range(3)) + "</ol>")
    page = _page('<div class="story"><h1>Council expands bike lanes</h1>' + "".join(f"<p>{p}</p>" for p in PARAS * 3)
                 + f'<div class="article-comments">{rules}</div></div>')
    text = _texts(page, relevant_content(page).nodes)
    assert PARAS[-1] in text and "Comments are moderated" not in text
    thread = "".join(f"<p>{p}</p>" for p in PARAS * 3)
    page = _page(f'<div class="topic"><h1>Bike lanes: your views</h1><p>{PARAS[0]}</p>'
                 f'<div class="comments">{thread}</div></div>')
    text = _texts(page, relevant_content(page).nodes)
    assert text.count(PARAS[-1]) == 3


def test_a_comment_section_named_by_id_goes_but_numbered_comments_of_a_thread_stay():
    rules = "".join(f"<p>Comments are moderated and published after review, rule {i}: be civil and stay on "
                    "the topic of the story.</p>" for i in range(3))
    story = "".join(f"<p>{p}</p>" for p in PARAS * 3)
    page = _page(f'<div class="story"><h1>Council expands bike lanes</h1>{story}<div id="comment_rules">{rules}</div></div>')
    text = _texts(page, relevant_content(page).nodes)
    assert PARAS[-1] in text and "Comments are moderated" not in text
    # a thread of long posts (short ones go as boilerplate-named blocks, as before)
    posts = "".join(f'<div id="comment-{4398546 + i}_wrap"><p>{PARAS[i]}</p><p>{PARAS[i - 1]}</p><p>{PARAS[i - 2]}</p></div>'
                    for i in range(4))
    page = _page(f'<div class="topic"><h1>Bike lanes: your views</h1>{posts}</div>')
    text = _texts(page, relevant_content(page).nodes)
    assert all(text.count(p) == 3 for p in PARAS)


def test_a_link_dense_table_stays_but_a_link_list_goes():
    # an infobox or a results table is data whose cells are links; a list of links is a link list
    rows = "".join(f'<tr><th>Country {i}</th><td><a href="/c/{i}">Capital city number {i}</a></td></tr>' for i in range(6))
    links = "".join(f'<li><a href="/story/{i}">Another story about the city number {i}</a></li>' for i in range(6))
    page = _page('<div class="story"><h1>Council expands bike lanes</h1>' + "".join(f"<p>{p}</p>" for p in PARAS * 2)
                 + f'<table class="infobox">{rows}</table><ul>{links}</ul>'
                 + f'<div><p>{PARAS[0]} Results:</p><table>{rows.replace("Capital", "Port")}</table></div></div>')
    text = _texts(page, relevant_content(page).nodes)
    assert "Capital city number 5" in text and "Country 0" in text and "Another story" not in text
    assert "Port city number 5" in text  # a table inside a kept block
    assert "Capital city number 5" not in _texts(page, relevant_content(page, NCEParams(keep_data=False)).nodes)


def test_a_reference_list_of_linked_citations_stays():
    refs = "".join(f'<li><cite><a href="https://example.org/{i}">Smith, J. ({2000 + i}). Cycling in cities, part {i}</a></cite></li>'
                   for i in range(8))
    page = _page('<div class="story"><h1>Council expands bike lanes</h1>' + "".join(f"<p>{p}</p>" for p in PARAS * 2)
                 + f'<h2>References</h2><ol class="refs">{refs}</ol></div>')
    assert "Cycling in cities, part 7" in _texts(page, relevant_content(page).nodes)
    assert "Cycling in cities, part 7" not in _texts(page, relevant_content(page, NCEParams(keep_data=False)).nodes)


# --- round 7: sentences that link ------------------------------------------------------------------
def test_a_list_item_whose_own_words_make_a_sentence_is_not_pruned_for_its_link():
    items = ('<li>Thanks to a volunteer, riders can now <a href="/a">report broken signals on the whole '
             "network from the app</a></li>"
             '<li><a href="/b">Read the full council report on the northern districts plan</a></li>'
             "<li>Work on the first lanes starts in the spring and takes about two years across the whole "
             "northern area, the transport department said.</li>")
    more = '<p>Read more: <a href="/c">Council publishes the full list of new bicycle lanes</a></p>'
    said = ('<p>According to the mayor\'s office, the plan <a href="/d">will be reviewed by the independent '
            "transport board early next year</a></p>")  # a paragraph of the separator itself
    page = _page(_story(f"<ul>{items}</ul>{more}{said}"))
    text = _texts(page, relevant_content(page).nodes)
    assert "Thanks to a volunteer" in text and "report broken signals" in text
    assert "According to the mayor" in text and "independent transport board" in text
    assert "Read the full council report" not in text and "Council publishes" not in text
    old = _texts(page, relevant_content(page, NCEParams(link_sentences=0)).nodes)
    assert "Thanks to a volunteer" not in old and "According to the mayor" not in old and PARAS[-1] in old


def test_an_article_continued_in_a_twin_block_after_a_picture_is_taken_whole():
    # a post cut into two blocks of one template around a full-width picture: the second block is
    # too small for the widening gain, but it is the same kind of block
    first = '<div class="section-inner">' + "".join(f"<p>{line}</p>" for line in _LINES[:8]) + "</div>"
    picture = '<div class="section-inner full"><figure><img src="/p.jpg"><figcaption>The hall</figcaption></figure></div>'
    second = '<div class="section-inner">' + "".join(f"<p>{line}</p>" for line in _LINES[8:10]) + "</div>"
    links = "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(8))
    page = _page(f'<ul class="menu">{links}</ul><div class="post">{first}{picture}{second}</div>')
    text = _texts(page, relevant_content(page).nodes)
    assert _LINES[0] in text and _LINES[9] in text and "Section 3" not in text
    assert _LINES[9] not in _texts(page, relevant_content(page, NCEParams(continuation=False)).nodes)


def test_a_linked_heading_of_the_separator_over_prose_stays_but_a_labelled_promo_goes():
    items = "".join(f'<h3><a href="/game{i}">Game number {i} ($20)</a></h3><p>{_LINES[i]}</p>' for i in range(4))
    promo = f'<h3>SEE ALSO: <a href="/other">Mother detained after asking why her son was arrested</a></h3><p>{_LINES[5]}</p>'
    page = _page(f'<div class="story">{items}{promo}<p>{_LINES[6]}</p></div>')
    text = _texts(page, relevant_content(page).nodes)
    assert "Game number 2 ($20)" in text and _LINES[2] in text
    assert "Mother detained" not in text and _LINES[5] in text
    assert "Game number 2" not in _texts(page, relevant_content(page, NCEParams(top_headings=False)).nodes)


def test_screen_reader_only_blocks_are_not_body_text():
    note = '<div class="sr-only">Press the escape key to close this dialog and return to the story page.</div>'
    tabs = f'<div class="hidden lg:block"><p>{_LINES[7]}</p></div>'  # utility CSS: shown on wide screens
    page = _page('<div class="story">' + "".join(f"<p>{line}</p>" for line in _LINES[:6]) + note + tabs + "</div>")
    text = _texts(page, relevant_content(page).nodes)
    assert _LINES[5] in text and _LINES[7] in text and "escape key" not in text
    assert "escape key" in _texts(page, relevant_content(page, NCEParams(hidden_names=False)).nodes)


def test_a_link_that_skips_its_own_box_is_not_body_text_but_a_cross_reference_is():
    skip = ('<div class="box"><a href="#after-box">Jump past this box now</a><h2>Timeline</h2>'
            f'<p>{_LINES[6]}</p></div><p id="after-box">{_LINES[7]}</p>')
    xref = f'<p>As shown in <a href="#t1">Table one</a> below, {_LINES[8]}</p><table id="t1"><tr><td>x</td></tr></table>'
    page = _page('<div class="story">' + "".join(f"<p>{line}</p>" for line in _LINES[:6]) + skip + xref + "</div>")
    text = _texts(page, relevant_content(page).nodes)
    assert "Jump past" not in text and _LINES[6] in text and _LINES[7] in text and "Table one" in text
    assert "Jump past" in _texts(page, relevant_content(page, NCEParams(skip_links=False)).nodes)


def test_the_fallback_content_of_a_plugin_object_is_page_text():
    player = ('<object classid="clsid:D27CDB6E"><param name="movie" value="v.swf"/>'
              '<object type="application/x-shockwave-flash" data="v.swf">'
              f'<div class="caption-box"><p>{_LINES[7]}</p></div></object></object>')
    page = _page('<div class="story">' + "".join(f"<p>{line}</p>" for line in _LINES[:6]) + player + "</div>")
    assert _LINES[7] in _texts(page, relevant_content(page).nodes)


# --- round 9: the lead under an <h1> when the title model found no headline ----------------------
def test_a_lead_under_the_last_h1_joins_the_body_when_the_title_model_found_no_headline(monkeypatch):
    from dataclasses import replace

    from newscrawl.extract import api

    real = api.detect
    monkeypatch.setattr(api, "detect", lambda *args, **kwargs: replace(real(*args, **kwargs), title_node=None))

    def body(headline_tag: str) -> str:
        html = ('<html><head><title>Bike lanes: what the vote means</title></head><body>'
                '<div class="top"><p>City News</p></div>'
                f'<div class="hero"><{headline_tag}>Council expands bike lanes</{headline_tag}>'
                f'<div class="abstract">{LEAD}</div><div class="meta">By Ann Smith</div></div>'
                '<div class="content">' + "".join(f"<p>{p}</p>" for p in PARAS * 4) + "</div></body></html>")
        article = api.extract(html, "https://news.example/bike-lanes")
        assert article.provenance["body"]["method"] == "nce"
        return article.body

    lines = body("h1").split("\n")
    assert lines[0] == LEAD and lines[1] == PARAS[0] and "Ann Smith" not in lines
    assert LEAD not in body("div")  # no <h1>: nowhere to read a lead from


def test_a_link_list_leading_to_other_sites_stays_but_one_of_the_sites_own_pages_does_not():
    tools = "".join(f'<li><a href="https://shop{i}.example.org/item">Cordless drill model {i}</a></li>' for i in range(5))
    related = "".join(f'<li><a href="/story/{i}">Another story about the city {i}</a></li>'
                      + f'<li><a href="https://www.news.example/more/{i}">More from the city {i}</a></li>' for i in range(3))
    story = "".join(f"<p>{line}</p>" for line in _LINES[:6])
    page = Page.from_html(f'<html><body><div class="story">{story}<ul>{tools}</ul><ul>{related}</ul></div></body></html>',
                          "https://www.news.example/story/9")
    text = _texts(page, relevant_content(page).nodes)
    assert _LINES[5] in text and "Cordless drill model 4" in text
    assert "Another story" not in text and "More from the city" not in text  # its own site, www. or not
    assert "Cordless drill" not in _texts(page, relevant_content(page, NCEParams(outbound=0)).nodes)


def test_a_button_the_parser_left_open_does_not_take_the_page_with_it():
    story = "".join(f"<p>{line}</p>" for line in _LINES * 2)
    # browsers close the button at </button> with its unclosed <div>s; libxml2 ignores that end tag
    page = _page('<header><button class="menu-button"><span>Menu</span><div class="inner"><div> </button>'
                 '<button class="search"><span>Search</span></button></header>'
                 f'<div class="story">{story}</div><button><p>Load more comments</p></button>')
    text = _texts(page, range(len(page.text_nodes)))
    assert _LINES[5] in text and "Search" not in text and "Load more" not in text


# --- galleries inside a declared article ----------------------------------------------------------
_CAPTIONS = "".join(
    f'<li><h2><span class="counter">{i}/4</span> Slide {i}</h2><p>Caption {i}: {PARAS[i - 1]}</p></li>'
    for i in range(1, 5))


def _gallery_page(og_type: str | None, wrapper: str = "article") -> str:
    meta = f'<meta property="og:type" content="{og_type}">' if og_type else ""
    gallery = f'<div class="inline-gallery"><ul class="legends">{_CAPTIONS}</ul></div>'
    story = "".join(f"<p>{line}</p>" for line in _LINES[:6])
    return (f"<html><head><title>Council expands bike lanes</title>{meta}</head><body><{wrapper}>"
            f"<h1>Council expands bike lanes</h1>{story}{gallery}<p>{_LINES[6]}</p></{wrapper}></body></html>")


def test_a_gallery_inside_a_declared_article_is_not_its_text():
    from newscrawl import extract

    body = extract(_gallery_page("article"), url="https://news.example/2024/05/bike-lanes").body
    assert _LINES[5] in body and _LINES[6] in body  # the text after the gallery stays
    assert "Caption 2" not in body and "Slide 3" not in body
    # the same strip on a page that does not declare an article, or outside the <article>, stays:
    # carousels there are often the content (testimonials, product views)
    assert "Caption 2" in extract(_gallery_page(None), url="https://news.example/bike-lanes").body
    page = Page.from_html(_gallery_page("article", wrapper="div"))
    text = _texts(page, relevant_content(page, NCEParams(declared_article=True)).nodes)
    assert "Caption 2" in text and _LINES[6] in text


def test_gallery_pruning_is_a_parameter_of_nce():
    page = Page.from_html(_gallery_page("article"))
    assert "Caption 2" in _texts(page, relevant_content(page).nodes)  # off by default
    text = _texts(page, relevant_content(page, NCEParams(declared_article=True)).nodes)
    assert "Caption 2" not in text and _LINES[6] in text


# --- sign-up boxes inside a declared article ------------------------------------------------------
_SIGNUP = ('<section class="box"><div class="box-head">Be the first to know!</div>'
           '<div><form action="/s"><input type="{kind}" name="contact"><input type="hidden" name="list">'
           '<p>By signing up you agree to receive messages from us at the address provided.</p></form></div>'
           '<div>Thanks for signing up!</div></section>')


def _signup_page(og_type: str | None, kind: str = "email", box_heading: str = "") -> str:
    meta = f'<meta property="og:type" content="{og_type}">' if og_type else ""
    box = _SIGNUP.format(kind=kind).replace('<section class="box">', f'<section class="box">{box_heading}')
    story = "".join(f"<p>{line}</p>" for line in _LINES[:6])
    return (f"<html><head><title>Council expands bike lanes</title>{meta}</head><body><article>"
            f"<h1>Council expands bike lanes</h1>{story}{box}<p>{_LINES[6]}</p></article></body></html>")


def _nce_text(html: str, declared: bool) -> str:
    page = Page.from_html(html)
    return _texts(page, relevant_content(page, NCEParams(declared_article=declared)).nodes)


def test_a_signup_box_inside_a_declared_article_goes_with_its_heading_and_notice():
    for kind in ("email", "tel"):
        text = _nce_text(_signup_page("article", kind), declared=True)
        assert _LINES[5] in text and _LINES[6] in text  # the text around the box stays
        assert "first to know" not in text and "By signing up" not in text and "Thanks for" not in text
    from newscrawl import extract

    body = extract(_signup_page("article"), url="https://news.example/2024/05/bike-lanes").body
    assert "By signing up" not in body and _LINES[6] in body


def test_signup_boxes_stay_on_undeclared_pages_and_forms_without_contact_fields_stay():
    # a product or service page's forms are often its content: only declared articles lose them
    assert "By signing up" in _nce_text(_signup_page("article"), declared=False)
    from newscrawl import extract

    assert "By signing up" in extract(_signup_page(None), url="https://news.example/bike-lanes").body
    # a search box (or any form not asking for an email address or phone number) is no sign-up box
    assert "By signing up" in _nce_text(_signup_page("article", kind="search"), declared=True)


def test_a_signup_box_stops_widening_at_a_top_heading():
    # the form's section holds an h2 the form lacks: the section is a part of the text, so only
    # the form's own block goes and the section's heading stays
    html = _signup_page("article", box_heading="<h2>Where the new lanes go</h2>")
    text = _nce_text(html, declared=True)
    assert "Where the new lanes go" in text and "first to know" in text
    assert "By signing up" not in text


@pytest.mark.parametrize("cls", ["listen-modal fade", "overlay", "c-dialog"])
def test_a_long_layer_inside_a_declared_article_is_not_its_text(cls):
    # a pop-up (hidden until opened by a stylesheet we may lack) or a legal note whose text is long
    # and link-free, so neither the size test of boilerplate names nor link density removes it
    modal = (f'<div class="{cls}"><div class="body"><p>'
             + " ".join(PARAS[:3]).replace("council", "podcast") + "</p></div></div>")
    story = "".join(f"<p>{line}</p>" for line in _LINES[:6])

    def html(og_type: str | None) -> str:
        meta = f'<meta property="og:type" content="{og_type}">' if og_type else ""
        return (f"<html><head><title>Council expands bike lanes</title>{meta}</head><body><article>"
                f"<h1>Council expands bike lanes</h1>{story}{modal}<p>{_LINES[6]}</p></article></body></html>")

    text = _nce_text(html("article"), declared=True)
    assert "podcast" not in text and _LINES[5] in text and _LINES[6] in text
    # elsewhere it stays (modals hold size guides and price notes on product pages)
    assert "podcast" in _nce_text(html(None), declared=False)


# --- call-to-action boxes inside a declared article ----------------------------------------------
_CTA_BOX = ('<div class="{cls}"><h3>Run your studio with less paperwork</h3><p>Start your free trial today and '
            'see how online booking, reminders and payments can save you hours every single week.</p>'
            '<p>No credit card required. Cancel any time you like.</p></div>')


def _cta_page(og_type: str | None, cls: str = "blog-cta", boxes: int = 1) -> str:
    meta = f'<meta property="og:type" content="{og_type}">' if og_type else ""
    story = "".join(f"<p>{line}</p>" for line in _LINES[:6])
    ctas = _CTA_BOX.format(cls=cls) * boxes
    return (f"<html><head><title>Council expands bike lanes</title>{meta}</head><body><article>"
            f"<h1>Council expands bike lanes</h1>{story}{ctas}<p>{_LINES[6]}</p></article></body></html>")


@pytest.mark.parametrize("cls", ["blog-cta", "cta", "hs-cta-wrapper", "module_CTA"])
def test_a_call_to_action_box_inside_a_declared_article_is_not_its_text(cls):
    # link-free prose under a layout heading: neither link density nor the boilerplate names remove it
    text = _nce_text(_cta_page("article", cls), declared=True)
    assert "free trial" not in text and "paperwork" not in text
    assert _LINES[5] in text and _LINES[6] in text
    # on pages that do not declare an article (a service page's offer is its content) it stays
    assert "free trial" in _nce_text(_cta_page(None, cls), declared=False)
    # a class word that only contains the letters is no name ("octagon", "ctaylor")
    assert "free trial" in _nce_text(_cta_page("article", "octa-grid"), declared=True)


def test_call_to_action_cards_that_make_up_the_content_stay():
    # page builders lay out a whole listing with "call to action" card widgets: when such blocks
    # hold half of the separator's text or more they are the content, not a box inside it
    text = _nce_text(_cta_page("article", "elementor-cta", boxes=6), declared=True)
    assert "free trial" in text and _LINES[6] in text


@pytest.mark.parametrize("cls", ["legal_disclaimer", "affiliate-disclaimer-small", "disclaimer"])
def test_a_long_disclaimer_is_not_the_text_on_any_page(cls):
    # a legal or affiliate notice is the publisher's: long, link-free prose that neither link density
    # nor the size test of boilerplate names removes, on pages that declare an article or not
    note = (f'<div class="{cls}"><p>This material is provided for general information only and does not '
            'constitute legal, tax or investment advice. Past performance does not guarantee future '
            'results, and readers should consult a qualified adviser before acting on it.</p></div>')
    story = "".join(f"<p>{line}</p>" for line in _LINES[:6])
    html = (f"<html><head><title>Council expands bike lanes</title></head><body><div class=post>"
            f"<h1>Council expands bike lanes</h1>{story}{note}<p>{_LINES[6]}</p></div></body></html>")
    for declared in (False, True):
        text = _nce_text(html, declared=declared)
        assert "investment advice" not in text and _LINES[5] in text and _LINES[6] in text
    # a heading is judged by its text's role, not a class ("disclaimer" titling a section of the text)
    heading = html.replace(note, f'<h2 class="{cls}">What the disclaimer on the ballot says</h2>')
    assert "What the disclaimer" in _nce_text(heading, declared=False)


# --- landmarks inside the content region ----------------------------------------------------------
_PROMO = ("Members get the printed weekly edition and the archive of every issue since the paper was founded, "
          "delivered to the door every Saturday morning.")


def _landmark_page(tag: str, attrs: str = "", *, promo_tag: str = "div", stories: int = 1) -> str:
    story = f"<{tag}{attrs}>" + "".join(f"<p>{p}</p>" for p in PARAS) + f"</{tag}>"
    promo = f"<{promo_tag} class=extra><p>{_PROMO}</p><p>{_PROMO.replace('Members', 'Subscribers')}</p></{promo_tag}>"
    return ("<html><head><title>Council expands bike lanes</title></head><body><div class=wrap>"
            f"<h1>Council expands bike lanes</h1>{story * stories}{promo}</div></body></html>")


@pytest.mark.parametrize(("tag", "attrs"), [("main", ""), ("article", ""), ("div", ' role="main"')])
def test_a_lone_main_or_article_landmark_holding_most_of_the_text_is_the_body(tag, attrs):
    # NCE elects the wrapper of both the story and the site's prose beside it; the markup says which
    # part is the page's article
    from newscrawl.extract import extract

    html = _landmark_page(tag, attrs)
    page = Page.from_html(html)
    separator = relevant_content(page, NCEParams()).separator
    assert separator is not None and separator.get("class") == "wrap"  # the promo is in NCE's content
    body = extract(html, "https://news.example/2024/05/01/bike-lanes").body
    assert PARAS[0] in body and PARAS[3] in body
    assert "printed weekly edition" not in body


def test_landmarks_that_do_not_single_out_the_article_leave_the_body_alone():
    from newscrawl.extract import extract

    url = "https://news.example/2024/05/01/bike-lanes"
    # two <article> elements (a post and a teaser card, or two posts): neither is the article
    assert "printed weekly edition" in extract(_landmark_page("article", stories=2), url).body
    # a lone <article> with under half of the text (a promo card above the story) is not the article
    promo = f"<article class=card><p>{_PROMO}</p></article>"
    headline = "<h1>Council expands bike lanes</h1>"
    minor = _landmark_page("div").replace(headline, headline + promo)
    body = extract(minor, url).body
    assert PARAS[0] in body and PARAS[3] in body and "printed weekly edition" in body
