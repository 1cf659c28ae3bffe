"""NCE relevant content (Laber et al. 2009, as used in seed 000 §3.4.1): separator node, the
link-density forest F(u, β4), and comment-section removal through the LCS graph.

The paper's parameter values are unpublished; ours were chosen by measurement on the
development data (docs/decisions.md, "NCE parameters"). The result is a set of text-node indices
of :class:`newscrawl.page.Page`, so later steps never walk the tree again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from itertools import chain, compress
from typing import Any
from weakref import WeakKeyDictionary

from newscrawl.links.urls import registrable_domain
from newscrawl.page import BOILERPLATE_NAMES, Page, boilerplate_named, enclosing, live_text_names, name_test

# Tags that never split a paragraph: pruning them for link density would cut links out of
# running text.
INLINE = frozenset(
    {
        "a",
        "abbr",
        "b",
        "bdi",
        "bdo",
        "cite",
        "code",
        "data",
        "dfn",
        "em",
        "font",
        "i",
        "kbd",
        "mark",
        "q",
        "s",
        "samp",
        "small",
        "span",
        "strong",
        "sub",
        "sup",
        "time",
        "u",
        "var",
        "wbr",
        "br",
        "img",
        "label",
        "strike",
        "tt",
        "big",
        "del",
        "ins",
        "nobr",
    }
)


@dataclass(frozen=True)
class NCEParams:
    beta1: float = 0.3  # sibling link density below which a long sibling counts as content
    beta2: int = 200  # minimum text length of the separator subtree
    beta3: int = 80  # a "long" leaf (and a long sibling)
    beta4: float = 0.5  # maximum link density of a kept subtree
    beta5: int = 2  # LCS-graph edges join subtrees at most this many positions apart in L
    beta6: float = 0.7  # LCS at least this share of the shorter text
    alpha1: int = 20  # comment candidates: subtree text length between alpha1 ...
    alpha2: int = 600  # ... and alpha2
    head: int = 120  # texts compared on their first min(len_a, len_b, head) characters
    min_before: float = 0.3  # a "comment section" must leave this share of the relevant text before it
    named_comments: bool = True  # ... unless it is named like comments (id/class)
    unnamed_comments: bool = False  # also remove similar subtrees without a comment-like name
    merge: float = 0.4  # separators with this share of the winner's votes merge into their LCA (0 = off)
    climb_gain: float = 0.3  # widen to an ancestor with this much more long-leaf text (votes) ... (0 = off)
    climb_density: float = 0.55  # ... while votes are at least this share of the ancestor's text
    continuation: bool = True  # ... or to the parent when a sibling of the same tag and class holds more
    climb_links: bool = True  # ... not counting separators in link-dense blocks (teaser rails, live tickers)
    retry_beta3: int = 40  # no leaf reaches beta3: look again with this shorter leaf (0 = off)
    prune_nested: bool = True  # also drop block descendants with link density > beta4
    prune_boilerplate: bool = True  # also drop descendants whose id/class say nav/share/comments...
    keep_headings: bool = True  # nested headings are not pruned for their link density
    hidden_names: bool = True  # blocks of screen-reader-only classes (sr-only, ...) prune like <nav>
    strong_names: bool = True  # blocks named newsletter/related/share/... go whatever their size
    consent_names: bool = True  # blocks whose id or class holds cookie/consent/gdpr go whatever their size
    credits: bool = True  # short blocks whose class says credit/copyright (image and photo credits) go
    dialogs: bool = True  # dialogs on screen (role=dialog/alertdialog, not aria-hidden) neither vote nor stay
    chrome_roles: bool = True  # role=navigation/complementary/contentinfo/search prune like <nav>/<aside>/<footer>
    chart_labels: bool = True  # a picture with labels placed on it by coordinates (a chart) goes with its labels
    comment_votes: float = 0.2  # weight of votes in comment-named blocks after the strongest other block
    skip_tabular: bool = True  # tables and code blocks are never comment candidates
    keep_prose: bool = True  # paragraphs inside blocks pruned for link density stay (not teasers)
    top_headings: bool = True  # a heading child of the separator that is one link over prose stays
    keep_data: bool = True  # tables and <cite> reference lists are not pruned for their link density
    link_sentences: int = 30  # a <p>/<li> with this much text outside its links is not pruned for them (0 = off)
    skip_links: bool = True  # an in-page link to the element right after its own box is not text
    outbound: float = 0.5  # a link-dense list stays when this share of its link text leads off-site (0 = off)
    inline_text: bool = True  # inline children (links) of a separator whose own text is prose stay with it
    nosnippet: bool = True  # blocks marked data-nosnippet (under half the separator's text) go like <nav>
    # metadata declares a forum thread (DiscussionForumPosting; set by extract_page): its replies are
    # the content, so comment names, the comment votes' discount and the comment cut do not apply
    discussion: bool = False
    # metadata declares a forum thread or a Q&A page (set by extract_page): the chrome around each
    # post (signatures, user cards, votes, badges, post menus: _POST_CHROME) goes whatever its size
    post_chrome: bool = False
    declared_article: bool = False  # metadata declares an article (set by extract_page): the two rules below
    # and the layer names (modal, popup, dialog, overlay, disclaimer) run
    galleries: bool = True  # ... galleries inside its <article> go
    media_players: bool = True  # ... and the text of video and audio players (Page.media_players)
    signup_box: int = 1500  # ... a sign-up form (email/tel input) goes with its box up to this many chars (0 = off)


DEFAULT_PARAMS = NCEParams()


@dataclass
class Relevant:
    """NCE result: the separator (None = whole page), kept forest roots and text-node indices."""

    separator: Any
    forest: list[Any]
    nodes: list[int]  # sorted text-node indices
    comment_cut: int | None = None  # first text-node index of the comment section found
    notes: list[str] = field(default_factory=list)


def _sibling_ok(page: Page, u: Any, p: NCEParams) -> bool:
    parent = u.getparent()
    if parent is None:
        return True
    long_siblings = 0
    for s in parent:
        if s is u or not page.has(s):
            continue
        if page.text_len(s) > p.beta3 and page.link_density(s) < p.beta1:
            long_siblings += 1
            if long_siblings > 1:
                return False
    return True


def find_separator(page: Page, p: NCEParams = DEFAULT_PARAMS) -> Any | None:
    """The separator node chosen by the most long-leaf text (votes of leaves ≥ β3 characters)."""
    body = page.body
    memo: dict[Any, Any] = {}
    votes: dict[Any, int] = {}
    # a dialog on screen (consent banner, sign-in prompt) is over the page, not its text: its long
    # leaves do not vote (on a listing of short teasers they elected the banner)
    on_dialogs: set[int] = set()
    if p.dialogs:
        for dialog in page.open_dialogs:
            on_dialogs.update(page.text_range(dialog))
    for tn in page.text_nodes:
        n = len(tn.text)
        if n < p.beta3 or (on_dialogs and tn.index in on_dialogs):
            continue
        u = tn.container
        path = []
        found = None
        while u is not None and page.has(u):
            if u in memo:
                found = memo[u]
                break
            path.append(u)
            if u.tag != "p" and u.tag not in INLINE and page.text_len(u) >= p.beta2 and _sibling_ok(page, u, p):
                found = u
                break
            if u is body:
                break
            u = u.getparent()
        for v in path:
            memo[v] = found
        if found is not None:
            votes[found] = votes.get(found, 0) + n
    if not votes:
        return None
    if p.comment_votes < 1 and not p.discussion:
        # a long comment thread below a short article outvotes it; threads before the strongest
        # other block (forums, reviews above a cookie text) keep their weight
        named = {u for u in votes if _in_comments(page, u, body)}
        plain = [u for u in votes if u not in named]
        if named and plain:
            first = page.index(max(plain, key=lambda u: (votes[u], -page.index(u))))
            for u in named:
                if page.index(u) > first:
                    votes[u] = int(votes[u] * p.comment_votes)
    best = max(votes, key=lambda u: (votes[u], -page.index(u)))
    if p.merge > 0:
        # Content split into sibling blocks (one per section or widget) elects several separators;
        # the strong ones together are the relevant content, so take their lowest common ancestor.
        strong = [u for u, v in votes.items() if v >= p.merge * votes[best]]
        if len(strong) > 1:
            best = _lca(strong)
    return _climb(page, best, votes, p) if p.climb_gain > 0 else best


def _climb(page: Page, best: Any, votes: dict[Any, int], p: NCEParams) -> Any:
    """Widen the separator to an ancestor that holds clearly more long-leaf text (votes) while
    that text stays most of the ancestor's text: an article cut into many small sections
    (accordions, page-builder blocks, a lede in a hero box) elects one section per few leaves,
    none strong enough to merge. Navigation, footers and teasers have short leaves and dilute
    the vote density, so the climb stops below them."""
    chain = list(best.iterancestors())
    position = {el: i for i, el in enumerate(chain)}
    inside = [0] * len(chain)  # votes of the separators inside each ancestor (not via best)
    own = 0
    for u, v in votes.items():
        node = u
        named = False  # comments, related teasers, sidebars: long leaves that are not the article
        while node is not None and node is not best and node not in position:
            named = (
                named
                or page.is_boilerplate(node)
                or _comments_named(page.names(node))
                or (p.climb_links and page.link_density(node) > p.beta1)
            )
            node = node.getparent()
        if node is None or named or (node is not u and _teaser(page, u)):  # an ancestor holds every card
            continue
        if node is best:
            own += v
        else:
            inside[position[node]] += v
    current, current_votes, total = best, own, own
    for i, el in enumerate(chain):
        if not page.has(el):
            break
        total += inside[i]
        n = page.text_len(el)
        if not n or total < p.climb_density * n:
            break
        if total >= (1 + p.climb_gain) * current_votes or (
            p.continuation and i == 0 and total > current_votes and _has_twin(best)
        ):
            current, current_votes = el, total
    return current


def _has_twin(el: Any) -> bool:
    """A sibling of the same tag and class: the article continues in a second block of the same
    template (a post cut into sections around a full-width picture)."""
    cls = el.get("class")
    return bool(cls) and any(
        s.tag == el.tag and s.get("class") == cls for s in chain(el.itersiblings(preceding=True), el.itersiblings())
    )


def _kept_ranges(page: Page, u: Any, p: NCEParams) -> tuple[list[Any], list[int]]:
    """F(u, β4) and the text nodes it covers, plus u's own text (u.text and its children's tails)."""
    forest = []
    keep: list[int] = []
    own = set(page.text_range(u))
    running = p.inline_text and _running_text(page, u, p)
    for child in u:
        if not page.has(child):
            continue
        r = page.text_range(child)
        own.difference_update(r)
        if _boilerplate(page, child, u, p):
            continue
        if (
            page.link_density(child) <= p.beta4
            or (running and child.tag in INLINE)
            or (p.keep_data and _data(page, child, u, u))
            or (
                p.top_headings
                and child.tag in _HEADINGS
                and page.link_density(child) >= 0.999
                and _followed_by_prose(page, child, p)
            )  # "MIRA: <a>..</a>" is a promo
            or (p.link_sentences and _link_sentence(page, child, p))
            or (p.outbound and _outbound(page, child, p))
        ):
            forest.append(child)
            keep.extend(pruned(page, child, u, p))
        elif p.keep_prose:
            keep.extend(_prose(page, child, u, p))
    keep.extend(own)  # tails of children and u.text
    keep.sort()
    return forest, keep


def _running_text(page: Page, u: Any, p: NCEParams) -> bool:
    """``u`` holds prose of its own (text outside its child elements, at least a long leaf's
    worth): a text written as lines between ``<br>`` with links inside its sentences, whose
    links are words of those sentences, as :func:`pruned` keeps inline elements."""
    own = page.text_len(u) - sum(page.text_len(c) for c in u if page.has(c))
    return own >= p.beta3


def _followed_by_prose(page: Page, el: Any, p: NCEParams) -> bool:
    """The next sibling with text is a paragraph-sized block of little link text, not another
    heading: ``el`` heads a section of the text (a listicle item that links what it reviews)
    rather than a list of links."""
    nxt = el.getnext()
    while nxt is not None and (not isinstance(nxt.tag, str) or not page.has(nxt) or not page.text_len(nxt)):
        nxt = nxt.getnext()
    return (
        nxt is not None
        and nxt.tag not in _HEADINGS
        and page.text_len(nxt) >= p.beta3
        and page.link_density(nxt) <= p.beta1
    )


def _boilerplate(page: Page, el: Any, u: Any, p: NCEParams) -> bool:
    """Named like navigation/share/comments (:func:`_named_boilerplate`), marked ``data-nosnippet``
    (what the site keeps out of search snippets: bylines, author bios, promos) when under half of
    the separator's text, or an image gallery inside a declared article (:func:`_gallery`)."""
    if not p.prune_boilerplate:
        return False
    if p.nosnippet and el.get("data-nosnippet") is not None and page.text_len(el) * 2 < page.text_len(u):
        return True
    return _named_boilerplate(page, el, u, p) or (p.declared_article and p.galleries and _gallery(page, el, u))


def _gallery(page: Page, el: Any, u: Any) -> bool:
    """A block named gallery/slideshow/carousel/slider/lightbox inside the <article> (or the
    itemprop=articleBody) of a page whose metadata declares an article: its slides' captions
    are not the story (a 50-slide "in pictures" strip inside a news text). Not on other pages,
    and not outside the article element: there carousels are often the content (testimonials,
    product views; wcxb-dev service and product pages lost when the rule ran everywhere)."""
    if el.tag in _HEADINGS or not _gallery_named(page.names(el)) or page.text_len(el) >= page.text_len(u):
        return False
    return any(a.tag == "article" or a.get("itemprop") == "articleBody" for a in el.iterancestors())


def _named_boilerplate(page: Page, el: Any, u: Any, p: NCEParams) -> bool:
    """Named like navigation/share/comments, holding under half of the separator's text (a
    wrapper called "content has-sidebar" must not take the article with it) and either short
    (< β2) or link-heavy (> β1). Headings are judged by class only, a block named only
    "widget" only when link-heavy; <nav>, <aside> and <footer> go by their tag, so do blocks whose
    class names a disclaimer, and in a declared article blocks whose class names a layer or a
    call-to-action box (:data:`_LAYER`, :data:`_CTA`)."""
    tag = el.tag
    names = page.names(el)
    if (
        tag in _BOILERPLATE_TAGS
        or (p.dialogs and el in page.open_dialogs)
        or (p.chrome_roles and el in page.chrome_roles)
        or (p.chart_labels and el in page.labelled_pictures)
        or (p.declared_article and p.media_players and el in page.media_players)
    ):
        return 2 * page.text_len(el) < page.text_len(u)  # whatever its size or links
    if names == " ":  # no id and no class (most elements): no name test below can say yes
        return False
    cls = live_text_names(el.get("class") or "")  # read once: each read is an lxml call
    if p.discussion:
        names, cls = _replies_kept(names), _replies_kept(cls)
    if p.hidden_names and _hidden_named(cls):
        return 2 * page.text_len(el) < page.text_len(u)  # whatever its size or links
    if p.post_chrome and tag not in _HEADINGS and _post_chrome_named(names):
        return 2 * page.text_len(el) < page.text_len(u)  # whatever its size or links
    if p.consent_names and tag not in _HEADINGS and _consent_named(names):
        return 2 * page.text_len(el) < page.text_len(u)  # a cookie bar's long policy text included
    if p.credits and tag not in _HEADINGS and _credit_named(cls):
        return page.text_len(el) < p.beta2  # "Photo: Jane Doe/AP", not a caption's story
    if tag not in _HEADINGS and (
        _disclaimer_named(cls)
        or (
            p.declared_article
            and (_layer_named(cls) or (_cta_named(cls) and 2 * _cta_text(page, u) < page.text_len(u)))
        )
    ):
        return 2 * page.text_len(el) < page.text_len(u)  # whatever its size or links
    if not boilerplate_named(names):  # page.is_boilerplate(el)
        # "related" glued to what it relates (jp-relatedposts, ce_relatedArticles): a related rail
        return p.strong_names and _related_named(cls) and 2 * page.text_len(el) < page.text_len(u)
    if tag in _HEADINGS:  # a heading's id is an anchor made from its text ("nav_nur_die_folie")
        names = cls
    if BOILERPLATE_NAMES.search(_WIDGET.sub(" ", names)) is None:
        # page builders call every layout cell "widget": such a cell goes only when link-heavy
        if not _WIDGET.search(names) or page.link_density(el) <= p.beta1:
            return False
    n = page.text_len(el)
    if 2 * n >= page.text_len(u):
        return False
    # ids are often slugs of headings: only a comment section's id is read
    if p.strong_names and (_strong_named(cls) or (not p.discussion and _comment_id(el))):
        return True
    return n < p.beta2 or page.link_density(el) > p.beta1


# HTML5 sectioning that says "not the text itself": menus and pagers, side boxes (related,
# pull quotes, sidenotes), a section's footer (tags, share bar, author box)
_BOILERPLATE_TAGS = frozenset({"nav", "aside", "footer"})
# Framework classes for text only screen readers get (Bootstrap, WordPress, Drupal, HTML5
# Boilerplate); "hidden"/"hide" are left out: utility CSS shows them on wider screens ("hidden lg:flex")
_HIDDEN = re.compile(
    r"(?:^|\s)(?:sr-only|visually-hidden|visuallyhidden|screen-reader-text|"
    r"element-invisible|offscreen)(?:$|\s)",
    re.I,
)
_hidden_named = name_test(_HIDDEN)
_WIDGET = re.compile(r"(?:^|[\s_-])widget(?:$|[\s_-])", re.I)
# Names that say "not this article" whatever the block's size (a long newsletter box, a related
# rail with summaries, a comment section's rules and first comments: the half-of-the-separator
# test keeps a forum thread that is the content), and the page's footer region ("footer1",
# "site-footer": the publisher's address and legal notice, as <footer> goes) but not a component's
# BEM footer ("card__footer": part of the card); layout names (widget, sidebar, banner, menu)
# still need the size test.
_STRONG = re.compile(
    r"(?:^|[\s_-])(?:newsletter|subscribe|subscription|signup|related|recommended|more-stories|"
    r"share|sharing|social|cookie|consent|gdpr|promo|sponsored|advert|comment|comments|"
    r"(?<!__)footer\d*)(?:$|[\s_-])",
    re.I,
)
_strong_named = name_test(_STRONG)

# Layers over the page: pop-ups (a privacy-settings dialog, a "listen to the podcast" overlay) are
# hidden until opened by stylesheets extraction often lacks. In a declared article they go whatever
# their size; on product and service pages modals hold size guides and price notes the page's text has
# (docs/decisions.md, "Sign-up boxes and pop-ups inside declared articles")
_LAYER = re.compile(r"(?:^|[\s_-])(?:modal|popup|dialog|overlay)(?:$|[\s_-])", re.I)
_layer_named = name_test(_LAYER)
# A disclaimer (legal, affiliate, investment or medical notice) is the publisher's, not the page's
# text, on any page (docs/decisions.md, "Disclaimers on every page")
_DISCLAIMER = re.compile(r"(?:^|[\s_-])disclaimer(?:$|[\s_-])", re.I)
_disclaimer_named = name_test(_DISCLAIMER)
# Call-to-action modules ("cta" in the class: "Start your free trial", "Book a demo", a donation
# appeal) inside a declared article are the publisher's marketing, not the story. Page builders
# also lay out listings with "call to action" card widgets, so such blocks go only while all of
# them together hold under half of the separator's text (docs/decisions.md, "Call-to-action boxes")
_CTA = re.compile(r"(?:^|[\s_-])cta(?:$|[\s_-])", re.I)
_cta_named = name_test(_CTA)
_CTA_TEXT: WeakKeyDictionary[Any, int] = WeakKeyDictionary()  # separator -> text of its CTA blocks


def _cta_text(page: Page, u: Any) -> int:
    """Text length of the outermost CTA-named blocks under ``u``, read once per separator (a page
    of many such blocks must not rescan the separator for each)."""
    total = _CTA_TEXT.get(u)
    if total is None:
        total, end = 0, -1
        for el in u.xpath(".//*[contains(translate(@class, 'CTA', 'cta'), 'cta')]"):  # document order
            if page.has(el) and _cta_named(el.get("class") or "") and page.index(el) > end:
                total += page.text_len(el)
                end = page.index(el) + page.descendants(el)  # blocks inside it are counted with it
        _CTA_TEXT[u] = total
    return total


# Consent banners and dialogs (cookie bars, consent-management pop-ups) by an id or class holding
# the word anywhere, glued or camel-cased ("cookie-law-info-bar", "cookiePolicy",
# "onetrust-consent-sdk", "cmplz-cookiebanner"): ids count here, unlike the other strong names,
# since no heading slug is a consent banner (headings are judged by class only)
_CONSENT = re.compile(r"cookie|consent|gdpr", re.I)
_consent_named = name_test(_CONSENT)
# An image's or a photo's credit line ("image-credit", "media-credit", "copyright"): the photographer
# and agency, not the story; only short blocks (a caption box named so keeps its text)
_CREDIT = re.compile(r"(?:^|[\s_-])(?:credit|credits|copyright|photographer)(?:$|[\s_-])", re.I)
_credit_named = name_test(_CREDIT)
_CREDIT_INLINE = frozenset({"span", "small"})  # the inline tags credits are written in (WordPress's media-credit)


def _inline_credit(page: Page, el: Any, n: int, p: NCEParams) -> bool:
    """A short ``<span>``/``<small>`` whose class says credit: inline elements are never pruned
    as blocks, but a credit line inside a caption or after a picture is no text either."""
    cls = el.get("class")
    return bool(cls) and n < p.beta2 and _credit_named(cls)


_GALLERY = re.compile(r"(?:^|[\s_-])(?:gallery|slideshow|carousel|slider|lightbox)(?:$|[\s_-])", re.I)
_gallery_named = name_test(_GALLERY)
_RELATED = re.compile(r"(?:^|[\s_-])related[a-z]", re.I)
_related_named = name_test(_RELATED)
_COMMENT_ID = re.compile(r"(?:^|[\s_-])(?:comment|comments)(?:$|[\s_-])", re.I)


def _comment_id(el: Any) -> bool:
    """An id naming a comment section ("comments", "comment_rules"): the one strong name read
    from ids. An id with digits names one comment of a thread ("comment-4398546_wrap"), and a
    forum's thread of such items is its content."""
    ident = el.get("id") or ""
    return _COMMENT_ID.search(ident) is not None and _DIGITS.search(ident) is None


# A heading that is a link (listicle items pointing at what they review, anchors) is still a
# heading of the text around it; link lists are dropped as the blocks that hold them.
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def pruned(page: Page, root: Any, u: Any, p: NCEParams) -> list[int]:
    """Text nodes of ``root`` minus nested block subtrees that are link lists or boilerplate."""
    r = page.text_range(root)
    if not (p.prune_nested or p.prune_boilerplate):
        return list(r)
    drop: list[range] = []
    named: list[range] = []  # boilerplate-named blocks: nothing inside them stays
    dense: list[Any] = []
    # the descendants are the Page's elements i+1 .. i+desc (document order): the ones with text
    # picked from its arrays in C, no tree walk and no lookups per element (~15 calls a page)
    i = page.index(root)
    text_len, link_len, first_tn, end_tn = page.measures()
    tags, elements = page.tags(), page.elements
    stop = i + 1 + page.descendants(root)
    for j in compress(range(i + 1, stop), text_len[i + 1 : stop]):
        tag = tags[j]
        if tag in INLINE:
            if tag in _CREDIT_INLINE and p.credits and _inline_credit(page, elements[j], text_len[j], p):
                named.append(range(first_tn[j], end_tn[j]))
            continue
        kind = _pruned_as(page, elements[j], tag, link_len[j] / text_len[j], root, u, p)
        if kind is _NAMED:
            named.append(range(first_tn[j], end_tn[j]))
        elif kind is _DENSE:
            drop.append(range(first_tn[j], end_tn[j]))
            dense.append(elements[j])
    if p.declared_article and p.signup_box:
        named.extend(_signup_boxes(page, root, u, p))
    if not (drop or named):
        return list(r)
    return _left(page, r, drop, named, dense, u, p)


def _signup_boxes(page: Page, root: Any, u: Any, p: NCEParams) -> list[range]:
    """Text-node ranges of the sign-up boxes under ``root``: a <form> asking for an email
    address or phone number (newsletter, deals by SMS, comment forms), widened up to ``root``
    while the box's text stays within ``p.signup_box`` characters and under half the
    separator's (the box's heading and legal notice sit beside the form) and it gains no h1/h2."""
    out: list[range] = []
    if "form" not in page.tag_totals():  # most pages: no walk of the kept roots at all
        return out
    limit = min(p.signup_box, page.text_len(u) / 2)
    for form in root.iter("form"):
        if not page.has(form) or not any(_asks_contact(i) for i in form.iter("input")):
            continue
        box = form
        parent = box.getparent()
        heads = _heads(page, form)
        while (
            box is not root
            and parent is not None
            and page.has(parent)
            and page.text_len(parent) <= limit
            and _heads(page, parent) == heads
        ):
            box, parent = parent, parent.getparent()
        if page.text_len(box) and page.text_len(box) <= limit:
            out.append(page.text_range(box))
    return out


def _heads(page: Page, el: Any) -> int:
    """h1/h2 headings in ``el`` or being it: a box that gains one has reached the page's own
    content (a product's name, a section of the text)."""
    return page.tag_count(el, "h1") + page.tag_count(el, "h2") + (el.tag in _TOP_HEADINGS)


_TOP_HEADINGS = frozenset({"h1", "h2"})


def _asks_contact(el: Any) -> bool:
    """An <input> for an email address or a phone number (by type, or by a name saying mail)."""
    kind = (el.get("type") or "").lower()
    return kind in ("email", "tel") or (kind in ("", "text") and "mail" in (el.get("name") or "").lower())


_NAMED, _DENSE = "named", "dense"


def _pruned_as(page: Page, el: Any, tag: str, link_density: float, root: Any, u: Any, p: NCEParams) -> str | None:
    """Why :func:`pruned` drops the block ``el`` under ``root``: boilerplate-named (_NAMED), a link
    list (_DENSE), or not at all (None)."""
    if _boilerplate(page, el, u, p):
        return _NAMED
    if (
        p.prune_nested
        and link_density > p.beta4
        and not (p.keep_headings and tag in _HEADINGS)
        and not (p.keep_data and _data(page, el, root.getparent(), u))
        and not (p.link_sentences and _link_sentence(page, el, p))
        and not (p.outbound and _outbound(page, el, p))
    ):
        return _DENSE
    return None


def _left(
    page: Page, r: range, drop: list[range], named: list[range], dense: list[Any], u: Any, p: NCEParams
) -> list[int]:
    """The text nodes of ``r`` outside the dropped link lists (their prose paragraphs stay) and the
    named blocks (nothing inside them stays)."""
    dropped: set[int] = set()
    for d in drop:
        dropped.update(d)
    if p.keep_prose:
        for el in dense:
            dropped.difference_update(_prose(page, el, u, p))
    for d in named:
        dropped.update(d)
    return [k for k in r if k not in dropped]


def _data(page: Page, el: Any, stop: Any, u: Any) -> bool:
    """Link-dense but no link list: ``el`` is, or sits below ``stop`` in, a table, or the separator
    ``u`` is a table's rows (infoboxes, results, schedules: data whose cells are often all links;
    a separator that is one cell is a layout table's), or ``el`` holds a <cite> (a reference
    list: each item a linked source)."""
    return u.tag in _TABLE_ROWS or bool(page.tag_count(el, "cite")) or enclosing(el, "table", stop) is not None


def _link_sentence(page: Page, el: Any, p: NCEParams) -> bool:
    """A paragraph or list item whose link text dominates but whose own words still make a
    sentence ("Thanks to X, users can now <a>import logins from ...</a>"): running text that
    links, where link-list items and "Read more: <a>" lines have a few words outside the link."""
    if el.tag in _LISTS:  # a list of such sentences: most of its items link their predicate
        items = [li for li in el if li.tag == "li" and page.has(li)]
        return len(items) >= 2 and 2 * sum(map(_link_mid_sentence, items)) > len(items)
    if el.tag not in _SENTENCE_TAGS:
        return False
    if page.text_len(el) * (1 - page.link_density(el)) >= p.link_sentences:
        return True
    return _link_mid_sentence(el)


def _link_mid_sentence(el: Any) -> bool:
    """The item's own words lead into its first link, whose text goes on in lower case
    ("Ann <a>fixed an issue with ...</a>"): a sentence that links its predicate, where a listed
    title or menu entry starts the item with its link and a capital."""
    lead = (el.text or "").strip()
    first = next(el.iter("a"), None)
    if first is None or not any(c.isalpha() for c in lead):
        return False
    words = (first.text or "").lstrip()
    return bool(words) and words[0].islower()


_SENTENCE_TAGS = frozenset({"p", "li"})
_LISTS = frozenset({"ul", "ol"})
_LIST_TAGS = _LISTS | {"li"}


def _outbound(page: Page, el: Any, p: NCEParams) -> bool:
    """A link-dense list whose links mostly lead to other sites lists what the text cites (tools,
    products, sources, patches, resources), where the site's own menus, teasers and related
    stories link its own pages. Relative links are the site's own."""
    if el.tag not in _LIST_TAGS or not page.url:
        return False
    home = registrable_domain(page.url)
    out = total = 0
    for a in el.iter("a"):
        href = a.get("href")
        if not href or not page.has(a):
            continue
        n = page.text_len(a)
        total += n
        if href.startswith("//"):
            href = "https:" + href
        if href.startswith(("http://", "https://")) and registrable_domain(href) != home:
            out += n
    return total > 0 and out >= p.outbound * total


_TABLE_ROWS = frozenset({"table", "thead", "tbody", "tfoot", "tr"})


def _prose(page: Page, root: Any, u: Any, p: NCEParams) -> list[int]:
    """Text of the paragraphs (<p> or <li>, ≥ β3 characters, link density ≤ β1) in a block pruned
    for its link density: an article's last paragraph often shares a wrapper with a related-links
    list, and a list's sentence item shares its <ul> with an item holding a nested link list.
    Teaser summaries are not prose: a paragraph after a link-dense sibling (the headline link),
    inside a link (a card that is one <a>) or below a card-sized block (at most three times the
    paragraph's text) with a linked heading; a wider block with linked headings is the story's
    wrapper beside its "next story" links."""
    out: list[int] = []
    stop = root.getparent()
    for el in root.iter("p", "li"):
        if not page.has(el) or page.text_len(el) < p.beta3 or page.link_density(el) > p.beta1:
            continue
        prev = el.getprevious()
        teaser = prev is not None and page.has(prev) and page.link_density(prev) > 0.5
        node = el.getparent()
        while not teaser and node is not None and node is not stop:
            teaser = (
                node.tag == "a"
                or _boilerplate(page, node, u, p)
                or (node is not root and page.text_len(node) <= 3 * page.text_len(el) and _teaser(page, node))
            )
            node = node.getparent()
        if not teaser:
            out.extend(page.text_range(el))
    return out


_DIGITS = re.compile(r"\d")


def lcs_len(a: str, b: str) -> int:
    """Length of the longest common subsequence, bit-parallel (Hyyrö 2004): O(len(b)) big-int ops."""
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return 0
    return _lcs(_bit_masks(a), len(a), b)


def _bit_masks(text: str) -> dict[str, int]:
    """Each character's positions in ``text`` as the bits of an int (the LCS's match masks)."""
    masks: dict[str, int] = {}
    for i, ch in enumerate(text):
        masks[ch] = masks.get(ch, 0) | (1 << i)
    return masks


_LCS_CHECK = 16  # characters of b between the early-exit tests of _lcs


def _lcs(masks: dict[str, int], n: int, b: str, at_least: float | None = None) -> int:
    """LCS of ``b`` and the first ``n`` (>= len(b)) characters of the text ``masks`` was made from (bits
    beyond n never enter: the state starts as n ones). With ``at_least``, the scan stops as soon as the
    answer to "LCS >= at_least?" is known, returning a value on the same side of ``at_least``: the LCS of
    a prefix of b bounds the whole one from below, that plus the characters left from above."""
    full = (1 << n) - 1
    v = full
    step = (len(b) or 1) if at_least is None else _LCS_CHECK
    for start in range(0, len(b), step):
        for ch in b[start : start + step]:
            m = masks.get(ch)
            if m is not None:
                u = v & m
                v = ((v + u) | (v - u)) & full
        if at_least is not None:
            found, left = n - v.bit_count(), len(b) - start - step
            if found >= at_least or found + left < at_least:
                return found if found >= at_least else found + max(left, 0)
    return n - v.bit_count()


def _comment_candidates(page: Page, forest: list[Any], p: NCEParams) -> list[Any]:
    """Depth-first: subtrees with α1 ≤ |text| ≤ α2 that hold block structure; not descended into."""
    out: list[Any] = []
    stack = list(reversed(forest))
    while stack:
        el = stack.pop()
        if not page.has(el):
            continue
        n = page.text_len(el)
        if n < p.alpha1 or (p.skip_tabular and (el.tag in _TABULAR or _caption_named(page.names(el)))):
            continue
        if (
            n <= p.alpha2
            and any(isinstance(c.tag, str) and c.tag not in INLINE for c in el)
            and not _has_heading(page, el)
            and not _repeating_content(page, el, p)
        ):
            out.append(el)
            continue
        stack.extend(reversed([c for c in el if isinstance(c.tag, str)]))
    return out


# Tables and code blocks repeat one structure by design (rows, highlighted lines); comments are
# prose. They are skipped whole; a block holding one is no candidate itself but is descended into.
_TABULAR = frozenset({"table", "thead", "tbody", "tfoot", "tr", "pre", "code", "figure"})
# Pictures with captions repeat one structure too; CMSs often mark them by class, not <figure>
# (WordPress "wp-caption")
_CAPTION = re.compile(r"(?:^|[\s_-])caption(?:$|[\s_-])", re.I)
_caption_named = name_test(_CAPTION)


def _repeating_content(page: Page, el: Any, p: NCEParams) -> bool:
    return p.skip_tabular and bool(page.tag_count(el, "table") or page.tag_count(el, "pre"))


# What forum and Q&A software puts around each post (vBulletin, XenForo, phpBB, Discourse,
# StackExchange): signatures, user cards, vote counts, badges and reputation, post menus and footers
_POST_CHROME = re.compile(
    r"(?:^|[\s_-])(?:signature|sig|user-?info|user-?card|user-?details|postprofile|"
    r"post-?signature|vote|votes|vote-?count|badges?|reputation|post-?meta|post-?footer|"
    r"post-?menu)(?:$|[\s_-])",
    re.I,
)
_post_chrome_named = name_test(_POST_CHROME)
_COMMENTS = re.compile(r"comment|disqus|discussion|respond|replies", re.I)
_comments_named = name_test(_COMMENTS)
# the comment words of BOILERPLATE_NAMES and _STRONG, for pages whose replies are the content
_COMMENT_WORDS = re.compile(r"(?:^|(?<=[\s_-]))(?:comment|comments)(?=$|[\s_-])", re.I)


def _replies_kept(names: str) -> str:
    """``names`` without the words that name comment sections: in a forum thread the replies are
    the content (vBulletin, Invision and Vanilla call each post a "comment"), not a section to prune.
    Q&A pages are left out: their comments under a question or an answer are comments."""
    return _COMMENT_WORDS.sub(" ", names) if "omment" in names else names


def _teaser(page: Page, u: Any) -> bool:
    """A block with a linked heading is a teaser card (headline link + summary), not a section."""
    return any(page.has(h) and page.link_density(h) > 0.5 for h in u.iter("h1", "h2", "h3", "h4", "h5", "h6"))


def _in_comments(page: Page, el: Any, stop: Any) -> bool:
    """``el`` or an ancestor below ``stop`` (the body, or the separator) is named like comments;
    below the separator such similar subtrees are a comment section even when they outweigh the
    article above them."""
    node = el
    while node is not None and node is not stop:
        if _comments_named(page.names(node)):
            return True
        node = node.getparent()
    return False


def _has_heading(page: Page, el: Any) -> bool:
    """Listicle and section items carry headings; comments do not."""
    return any(page.tag_count(el, h) for h in ("h2", "h3", "h4", "h5", "h6"))


def _comment_component(page: Page, cands: list[Any], p: NCEParams) -> list[Any] | None:
    texts = [_DIGITS.sub("0", page.text(el).lower())[: p.head] for el in cands]
    masks = [_bit_masks(t) for t in texts]  # a text is compared with up to 2 * beta5 others
    parent = list(range(len(cands)))
    size = [1] * len(cands)

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i in range(len(cands)):
        for j in range(i + 1, min(len(cands), i + p.beta5 + 1)):
            # equal-length heads: a short text is a subsequence of almost any long one
            shorter = min(len(texts[i]), len(texts[j]))
            if not shorter or _lcs(masks[i], shorter, texts[j][:shorter], p.beta6 * shorter) < p.beta6 * shorter:
                continue
            a, b = find(i), find(j)
            if a != b:
                parent[b] = a
                size[a] += size[b]
                if size[a] >= 3:
                    return [cands[k] for k in range(len(cands)) if find(k) == a]
    return None


def _skip_link_nodes(page: Page, u: Any) -> set[int]:
    """Text of skip links below ``u``: an ``<a href="#x">`` that opens a box (its parent's first
    content, more text after it) and whose target ``x`` is the element right after that box (or its
    first descendant) jumps over the box ("Continue reading the main story" before a side box):
    navigation for readers who cannot see the box, not text. A cross-reference inside a sentence
    ("see <a>Table 6-1</a>") has text before it."""
    out: set[int] = set()
    for a in u.iter("a"):
        href = a.get("href")
        box = a.getparent()
        if (
            not href
            or len(href) < 2
            or href[0] != "#"
            or box is None
            or box is u
            or not page.has(a)
            or (box.text and not box.text.isspace())
            or a.getprevious() is not None
            or page.text_len(box) <= page.text_len(a)
        ):
            continue
        nxt = box.getnext()
        while nxt is not None and not isinstance(nxt.tag, str):
            nxt = nxt.getnext()
        if nxt is None:
            continue
        target = href[1:]
        first = next((d for d in nxt.iterdescendants() if isinstance(d.tag, str)), None)
        if any(el is not None and target in (el.get("id"), el.get("name")) for el in (nxt, first)):
            out.update(page.text_range(a))
    return out


def _lca(nodes: list[Any]) -> Any:
    first = nodes[0]
    chain = [first] + list(first.iterancestors())
    position = {el: i for i, el in enumerate(chain)}
    best = 0
    for el in nodes[1:]:
        node = el
        while node is not None and node not in position:
            node = node.getparent()
        if node is None:
            return chain[-1]
        best = max(best, position[node])
    return chain[best]


def relevant_content(page: Page, p: NCEParams = DEFAULT_PARAMS) -> Relevant:
    """Run NCE on ``page``: separator, forest F(u, β4), then comment removal."""
    u = find_separator(page, p)
    if u is None and p.retry_beta3 and p.retry_beta3 < p.beta3:
        # text cut into short runs (a span per sentence): look again with shorter leaves
        u = find_separator(page, replace(p, beta3=p.retry_beta3))
    if u is None:
        return Relevant(None, [page.body], list(range(len(page.text_nodes))), notes=["no separator node"])
    forest, keep = _kept_ranges(page, u, p)
    if p.skip_links:
        skipped = _skip_link_nodes(page, u)
        if skipped:
            keep = [k for k in keep if k not in skipped]
    result = Relevant(u, forest, keep)
    component = _comment_component(page, _comment_candidates(page, forest, p), p)
    if component:
        z = _lca(component)
        if z is u or z in set(u.iterancestors()):
            cut = min(page.text_range(el).start for el in component)
        else:
            cut = page.text_range(z).start
        before, total = page.split_chars(keep, cut)
        named = p.named_comments and _in_comments(page, component[0], u)
        if before >= p.min_before * total or named:
            # the page classifier reads the section found either way; the body loses it only
            # when it is named like comments: unnamed runs of similar subtrees were as often
            # reference lists, parameter lists, forum posts and product grids that are the
            # content (docs/decisions.md, "Extraction quality against the peers, round 7")
            result.comment_cut = cut
            if (named or p.unnamed_comments) and not p.discussion:
                result.nodes = [k for k in keep if k < cut]
                result.notes.append(f"comment section of {len(component)} similar subtrees removed")
    return result
