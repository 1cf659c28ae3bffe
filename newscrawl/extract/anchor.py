"""The headline anchors the article: checks of NCE's choice against the text next to the headline.

NCE elects the block with the most long-leaf text. On a short post (a picture and two lines) that is
often the sidebar's "about me" box or a comment thread, while the headline the title model found sits
over the real text. When NCE's choice shares no word with the headline and sits in a sidebar, a
comment section or wholly above the headline (a notice over the page), the block under the headline
is the body instead (docs/decisions/body-news.md).
"""

from __future__ import annotations

import re
from collections.abc import Container
from typing import Any
from urllib.parse import urlsplit

from lxml import etree

from newscrawl.extract.nce import NCEParams, _comments_named, _in_comments, pruned
from newscrawl.links.urls import registrable_domain
from newscrawl.page import Page
from newscrawl.safeurl import join_url

_WORD = re.compile(r"\w{4,}")
# tags of page chrome beside the article (with the chrome ARIA roles): NCE's choice inside one is not the story
_SIDE_TAGS = frozenset({"aside", "footer", "nav"})


STEM_CHARS = 5  # words compare by their first letters: "Klimaschutzes" and "Klimaschutz", "greatest" and "great"


def words(text: str) -> set[str]:
    """The words of four or more letters, case-folded and cut to STEM_CHARS ("the", "and", "der" are
    shared by any two texts; inflections and compounds share their stem)."""
    return {w.casefold()[:STEM_CHARS] for w in _WORD.findall(text)}


def _cell_of(el: Any, stop: Any = None) -> Any | None:
    """``el`` or its nearest ancestor that is a table cell, below ``stop``; None without one."""
    cell = el
    while cell is not None and cell is not stop and cell.tag not in ("td", "th"):
        cell = cell.getparent()
    return None if cell is stop else cell


def _cells_beside(page: Page, headline: int, separator: Any, kept: list[int], min_chars: int) -> list[Any]:
    """The other cells of the table row whose cell holds the ``headline`` and ``min_chars`` of the
    kept text after it, inside ``separator``: a table layout's columns beside the post's. (A row
    whose headline cell holds less, a headline and a date, may have the story in the next cell.)"""
    cell = _cell_of(page.text_nodes[headline].container, separator)
    if cell is None:
        return []
    span = page.text_range(cell)
    if sum(len(page.text_nodes[k].text) for k in kept if k > headline and k in span) < min_chars:
        return []
    row = cell.getparent()  # inside the separator: the climb stopped below it
    if row is None or not page.has(row):
        return []
    return [c for c in row if c is not cell and c.tag in ("td", "th") and page.has(c)]


def _cell_beside(page: Page, separator: Any, headline: int) -> bool:
    """``separator`` lies in a table cell whose row holds the ``headline`` in another cell: a table
    layout's side column beside the post's (the cells of one row are columns side by side)."""
    cell = _cell_of(separator)
    if cell is None or not page.has(cell) or headline in page.text_range(cell):
        return False
    row = cell.getparent()
    return row is not None and page.has(row) and headline in page.text_range(row)


def beside_article(page: Page, separator: Any) -> bool:
    """``separator`` or an ancestor is a sidebar or a comment section: an ``<aside>``/``<nav>``/
    ``<footer>``, an element of a chrome role, one named as a sidebar (:func:`_sidebar`), or one
    whose id/class says sidebar, widget, comments..."""
    node = separator
    while node is not None and page.has(node):
        if node.tag in _SIDE_TAGS or node in page.chrome_roles or _sidebar(page, node):
            return True
        if node is not page.body and (page.is_boilerplate(node) or _comments_named(page.names(node))):
            return True
        node = node.getparent()
    return False


def under_headline(
    page: Page,
    kept: list[int],
    headline: int | None,
    separator: Any,
    params: NCEParams,
    shown: set[int],
    skip: set[int],
    min_chars: int,
) -> tuple[list[int], Any] | None:
    """The text nodes of the block under the headline and that block, when NCE's choice (``kept``
    under ``separator``) shares no word with the headline (or is empty: all of it was a comment
    section) and sits beside the article or wholly above the headline (a browser-upgrade or
    cookie notice over the page); else None.

    The block is the headline's lowest ancestor that holds ``min_chars`` of text after the headline,
    climbing no higher than the first ancestor that also holds ``separator`` (that one is the whole
    page). Its link lists and boilerplate-named boxes are pruned as NCE prunes its own choice."""
    if headline is None or separator is None:
        return None
    span = page.text_range(separator)
    if headline in span:
        return None
    tns = page.text_nodes
    title = words(tns[headline].text)
    if not title or any(title & words(tns[k].text) for k in kept):
        return None
    if shown and headline > max(shown):  # past the text the date model read: styles not yet judged
        shown = shown | {
            k for k in range(headline + 1, len(tns)) if getattr(page.style(tns[k].container), "visible", True)
        }
    # NCE's choice is beside the article (named so), or wholly above the headline; otherwise the
    # block under the headline must call itself the post (checked once it is found)
    placed = span.stop <= headline or beside_article(page, separator) or _cell_beside(page, separator, headline)
    block = tns[headline].container
    end_of_headline = headline + 1
    while True:
        parent = block.getparent()
        if parent is None or not page.has(parent):
            return None
        if page.index(separator) in _element_span(page, parent):
            # the headline's column holds NCE's choice: a comment thread under the post is left out
            # of the column, once; anything else there makes the column the whole page
            if (
                span.start < headline
                or page.index(separator) in _element_span(page, block)
                or not _in_comments(page, separator, page.body)
            ):
                return None
        block = parent
        after = [
            k for k in page.text_range(block) if k >= end_of_headline and k in shown and k not in skip and k not in span
        ]
        if sum(len(tns[k].text) for k in after) >= min_chars:
            break
        if page.index(separator) in _element_span(page, block):
            return None
    if not placed and not names_a_post(page, block):
        return None
    nodes = [
        k
        for k in pruned(page, block, block, params)
        if k >= end_of_headline and k in shown and k not in skip and k not in span
    ]
    if sum(len(tns[k].text) for k in nodes) < min_chars:
        return None
    return nodes, block


# A sidebar by its names, whole: an id or class "side" or "sidebar" ("sidebar2", "side-bar",
# "widget-area"; a table layout's cell class="side"), WordPress's id "secondary". Parts of longer
# names are utility classes and layout variants ("text-secondary", "n-sidebar-left",
# "sidebar-enabled--false"); a lone "widget" is no sidebar (page builders name every block of the
# article a widget).
_SIDEBAR_CLASS = re.compile(r"side|sidebar\d*|side-bar|widget-area", re.I)
_SIDEBAR_ID = re.compile(r"side|sidebar\d*|side-bar|secondary", re.I)


# the separator's elements that may be a sidebar, found in one XPath call (a Python walk over every
# element of a page-wide separator cost twice as much); :func:`_sidebar` decides on each
_SIDEBAR_CANDIDATES = etree.XPath(
    "descendant::*[self::aside or contains(@class, 'side') or contains(@class, 'Side')"
    " or contains(@class, 'widget-area') or contains(@id, 'side') or contains(@id, 'Side') or @id = 'secondary']"
)


def _sidebar(page: Page, el: Any) -> bool:
    """``el`` is a sidebar: an ``<aside>``, an element of a chrome role, or named as one."""
    if el.tag == "aside" or el in page.chrome_roles:
        return True
    if _SIDEBAR_ID.fullmatch((el.get("id") or "").strip()):
        return True
    return any(_SIDEBAR_CLASS.fullmatch(name) for name in (el.get("class") or "").split())


def without_sidebars(page: Page, kept: list[int], headline: int | None, separator: Any, min_chars: int) -> list[int]:
    """``kept`` without the text of sidebars inside ``separator`` (an ``<aside>``, a complementary or
    navigation role, an element named sidebar) that do not hold the ``headline``, and without what
    follows the post's own element (:func:`names_a_post`, not one card of a list) under the
    headline: when NCE's choice spans the whole page of a short post, the sidebar's "about me" box
    is not the story told under the headline. Only when the headline lies inside the separator and
    text after it is left."""
    if headline is None or separator is None or headline not in page.text_range(separator):
        return kept
    drop: set[int] = set()
    first = page.index(separator)
    last = first + page.descendants(separator)
    roles = [el for el in page.chrome_roles if first < page.index(el) <= last]
    for el in [*_SIDEBAR_CANDIDATES(separator), *roles]:
        if not page.has(el) or not _sidebar(page, el):
            continue
        span = page.text_range(el)
        if headline not in span:
            drop.update(span)
    for cell in _cells_beside(page, headline, separator, kept, min_chars):
        drop.update(page.text_range(cell))
    left = [k for k in kept if k not in drop]
    if not any(k > headline for k in left):
        return kept
    post = _story_block(page, left, headline, min_chars)
    if post is not None and post is not separator and names_a_post(page, post) and not _repeated(post):
        # the post's own element ends the story: what follows it in NCE's choice is the page's
        end = page.text_range(post).stop
        left = [k for k in left if k < end]
    return left


def _story_block(page: Page, kept: list[int], headline: int, min_chars: int) -> Any | None:
    """The headline's lowest ancestor holding ``min_chars`` of the kept text after the headline."""
    tns = page.text_nodes
    after = [k for k in kept if k > headline]
    block = tns[headline].container
    while True:
        block = block.getparent()
        if block is None or not page.has(block):
            return None
        span = page.text_range(block)
        if sum(len(tns[k].text) for k in after if k in span) >= min_chars:
            return block


def _repeated(el: Any) -> bool:
    """A sibling of ``el`` has its tag and first class: one card of a list, not the page's post."""
    parent = el.getparent()
    kind = _first_class(el)
    return parent is not None and any(s is not el and s.tag == el.tag and _first_class(s) == kind for s in parent)


ABOVE_MAX_CHARS = 400  # text over the headline that is a notice or the site's banner, no story's opening


def above_headline_elsewhere(page: Page, kept: list[int], headline: int, min_chars: int) -> bool:
    """``kept`` before the ``headline`` is under ABOVE_MAX_CHARS of text, none of it inside the
    story's block (the headline's lowest ancestor holding ``min_chars`` of the kept text after it):
    a notice over the page, the site's banner, a date header over the post. The story starts at its
    headline however short it is. Text before the headline inside its block (a kicker, the featured
    picture's caption, or a "headline" found deep inside the text), or more of it (the opening of a
    story whose headline sits lower), says nothing of the kind."""
    before = [k for k in kept if k < headline]
    if not before or page.split_chars(kept, headline)[0] >= ABOVE_MAX_CHARS:
        return False
    block = _story_block(page, kept, headline, min_chars)
    return block is not None and not any(k in page.text_range(block) for k in before)


# the names of a blog post's own element, whole, as blog engines write them ("post hentry",
# "entry", "type-post", "blog-post", "post-123"): the markup says the text under the headline is the
# post ("post-header", "entry-meta" are parts of it). Not "article": CMSs write each part of a story
# as an <article> or a block named so.
_POST_NAMES = re.compile(r"post|hentry|entry|type-post|blog-?post|single-?post|post-\d+", re.I)


def names_a_post(page: Page, block: Any) -> bool:
    """``block`` is named as a blog post by its id or one of its classes."""
    return any(_POST_NAMES.fullmatch(name) for name in page.names(block).split())


def _element_span(page: Page, el: Any) -> range:
    """The Page's element indices of ``el`` and its descendants."""
    first = page.index(el)
    return range(first, first + 1 + page.descendants(el))


CARD_MAX_CHARS = 400  # a teaser card: a linked headline and a line or two of summary
CARDS_MIN = 3  # ... in a run of at least this many alike siblings
_CARD_HEADINGS = ("h2", "h3", "h4", "h5", "h6")


def without_teaser_cards(
    page: Page, kept: list[int], container: Any, headline: int | None, params: NCEParams
) -> list[int]:
    """``kept`` minus the teaser cards that end it: runs of CARDS_MIN+ sibling blocks of one tag and
    first class, each under CARD_MAX_CHARS and holding a heading that is mostly a link to another page
    of the site (another story's headline over its summary: "more stories", "other columns"), none
    holding the headline, after the article's last other text. Only while the cards hold under half
    of ``kept``'s text: on a listing the cards are the content. Cards inside the text stay (a listicle
    links its items' headings, mostly off-site, and closes with its own words). Only on pages whose
    metadata declares an article and no forum thread or Q&A page (where linked thread titles close
    the posts: wcxb-dev forum pages lost when it ran everywhere)."""
    if not _cards_apply(container, kept, params):
        return kept
    site = registrable_domain(page.url) if page.url else None
    cards: dict[Any, None] = {}  # in document order, each once
    for heading in container.iter(*_CARD_HEADINGS):
        if not page.has(heading) or not page.text_len(heading) or page.link_density(heading) <= 0.5:
            continue
        if not any(_same_site(a.get("href"), site) for a in heading.iter("a")):
            continue
        card = _card_of(page, heading, container)
        if card is not None and (headline is None or headline not in page.text_range(card)):
            cards[card] = None
    if not cards:
        return kept
    drop: set[int] = set()
    for card in cards:
        drop.update(page.text_range(card))
    return _without_closing(page, kept, drop)


def _cards_apply(container: Any, kept: list[int], params: NCEParams) -> bool:
    """Cards leave only a declared article's body, never a forum thread's or a Q&A page's."""
    if container is None or not kept or params.discussion or params.post_chrome:
        return False
    return params.declared_article


def _without_closing(page: Page, kept: list[int], drop: Container[int]) -> list[int]:
    """``kept`` cut after its last text node outside ``drop``, when what follows is all in ``drop``
    and holds under half of ``kept``'s text (on a listing the cards are the content)."""
    tns = page.text_nodes
    last_other = max((k for k in kept if k not in drop), default=-1)
    tail = [k for k in kept if k in drop and k > last_other]
    if not tail or 2 * sum(len(tns[k].text) for k in tail) >= sum(len(tns[k].text) for k in kept):
        return kept
    return [k for k in kept if k <= last_other]


def without_trailing_card(
    page: Page, kept: list[int], container: Any, headline: int | None, params: NCEParams
) -> list[int]:
    """``kept`` minus a lone teaser card that ends it (:func:`_pictured_cards`: another story's
    thumbnail and linked headline over its summary, after the article's last other text), under the
    conditions of :func:`without_teaser_cards`. Only when it is the one such card in ``kept``: several
    are a listing's items. Run after the left-over label is trimmed, so the story's own closing line
    before the card ("Rock on!", ticket prices) is not taken for a label of what was removed."""
    if not _cards_apply(container, kept, params):
        return kept
    site = registrable_domain(page.url) if page.url else None
    shown = set(kept)
    pictured = [c for c in _pictured_cards(page, container, site) if any(k in shown for k in page.text_range(c))]
    if len(pictured) != 1 or (headline is not None and headline in page.text_range(pictured[0])):
        return kept
    return _without_closing(page, kept, page.text_range(pictured[0]))


def _pictured_cards(page: Page, container: Any, site: str | None) -> list[Any]:
    """Teaser cards with a picture: a block under CARD_MAX_CHARS in which a picture and a text link
    point to the same other page of the site (another story's thumbnail and headline, its summary
    beside them). The largest such block around the picture's link is the card."""
    own = (page.url or "").split("#", 1)[0].rstrip("/")
    found: list[Any] = []
    inside = _element_span(page, container)
    links: dict[Any, None] = {}  # the links around the container's pictures, each once, in document order
    for img in page.with_tags("img"):
        if page.index(img) in inside:
            link = next(img.iterancestors("a"), None)
            if link is not None and page.has(link) and page.index(link) in inside:
                links[link] = None
    for link in links:
        href = (link.get("href") or "").strip()
        if not href or not _same_site(href, site):
            continue
        if own and (join_url(page.url, href) or "").split("#", 1)[0].rstrip("/") == own:
            continue  # the story's own picture, linked to itself
        card = None
        node = link.getparent()
        while node is not None and node is not container and page.has(node) and page.text_len(node) < CARD_MAX_CHARS:
            titled = (a for a in node.iter("a") if a is not link and page.text_len(a))
            if any((a.get("href") or "").strip() == href for a in titled):
                card = node  # the picture's page is linked by text here too: its headline
            node = node.getparent()
        if card is not None:
            found.append(card)
    return found


def _same_site(href: str | None, site: str | None) -> bool:
    """A link to another page of the site: relative, or absolute on the page's registrable domain;
    not an in-page anchor or a script."""
    if not href or href.startswith(("#", "javascript:", "mailto:")):
        return False
    try:
        host = urlsplit(href).hostname
    except ValueError:  # a malformed URL ("http://[x"): no page of the site
        return False
    return host is None or (site is not None and registrable_domain(host) == site)


def _card_of(page: Page, heading: Any, container: Any) -> Any | None:
    """The highest ancestor of ``heading`` below ``container`` with under CARD_MAX_CHARS of text that has
    CARDS_MIN - 1 or more siblings of its tag and first class (the others number the cards), else None."""
    found = None
    node = heading
    while node is not None and node is not container and page.has(node) and page.text_len(node) < CARD_MAX_CHARS:
        parent = node.getparent()
        if parent is None:
            break
        kind = _first_class(node)
        alike = sum(1 for s in parent if s.tag == node.tag and _first_class(s) == kind)
        if alike >= CARDS_MIN:
            found = node
        node = parent
    return found


def _first_class(el: Any) -> str:
    return next(iter((el.get("class") or "").split()), "")
