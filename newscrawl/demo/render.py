"""HTML templates of the demo sites: one shared page shell and one function per page kind.

Pages are rendered per request from the content model with the server's real base URL, so the
absolute URLs (canonical, og:url, JSON-LD, breadcrumbs, RSS link) point at the running server.
Like a real CMS theme, every page has the same cookie banner, header (logo, menu, search),
breadcrumbs, sidebar (most read, newsletter box, partner links) and footer; only ``main`` varies.
Dates appear in several visible formats and, on some articles only, in JSON-LD, ``<meta>`` or
``<time datetime>``; the masthead shows the site's fixed "today" as a distractor date.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape

from newscrawl.demo.assets import STYLE_BLOCK
from newscrawl.demo.model import SECTION_NAMES, SECTIONS, Article, Author
from newscrawl.demo.text import MONTHS

SITE_NAME = "The Prairie Ledger"
TODAY = "Saturday, March 29, 2025"


@dataclass(frozen=True)
class Ctx:
    """Per-request rendering context. ``full`` is False for the large site (no tag/author/media
    pages there, so the template leaves those links out)."""

    base: str
    most_read: tuple[Article, ...] = ()
    offsite_base: str | None = None
    traps: bool = False
    full: bool = True
    trap_links: tuple[tuple[str, str], ...] = ()
    footer_links: tuple[tuple[str, str], ...] = ()


def e(text: str) -> str:
    return escape(text, quote=True)


def visible_date(dt: datetime, style: int) -> str:
    """The varied human formats real sites use (truth keeps the ISO date)."""
    month = MONTHS[dt.month - 1]
    if style == 0:
        return f"{dt.day} {month} {dt.year}"
    if style == 1:
        return f"{month} {dt.day}, {dt.year} {dt:%H:%M}"
    if style == 2:
        return dt.date().isoformat()
    if style == 3:
        return f"Published {dt:%A}, {dt.day} {month} {dt.year} at {dt:%H:%M}"
    return f"{month[:3]}. {dt.day}, {dt.year}"


def short_date(dt: datetime) -> str:
    return f"{MONTHS[dt.month - 1][:3]} {dt.day}, {dt.year}"


def author_links(ctx: Ctx, authors: Sequence[Author]) -> str:
    if ctx.full:
        names = [f'<a href="{a.path}" rel="author">{e(a.name)}</a>' for a in authors]
    else:
        names = [f'<span class="author-name">{e(a.name)}</span>' for a in authors]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def card(ctx: Ctx, art: Article, *, lead: bool = False, href: str | None = None, kicker: bool = False) -> str:
    link = href or art.path
    klass = "card-title lead" if lead else "card-title"
    kick = f'<p class="kicker"><a href="/{art.section}/">{SECTION_NAMES[art.section]}</a></p>' if kicker else ""
    names = ", ".join(a.name for a in art.authors)
    return (
        f'<article class="story-card">{kick}<h3 class="{klass}"><a href="{e(link)}">'
        f'{e(art.title)}</a></h3><p class="teaser">{e(art.standfirst)}</p>'
        f'<p class="card-meta"><span class="card-author">By {e(names)}</span> &middot; '
        f'<span class="card-date">{short_date(art.published)}</span></p></article>'
    )


def _menu(current: str | None, full: bool) -> str:
    items = [("", "Home")] + list(SECTIONS)
    if full:
        items += [("video", "Video"), ("gallery", "Galleries")]
    lis = []
    for slug, name in items:
        href = f"/{slug}/" if slug else "/"
        cls = ' class="current"' if slug == (current or "") else ""
        lis.append(f'<li{cls}><a href="{href}">{name}</a></li>')
    return "<ul>" + "".join(lis) + "</ul>"


def _sidebar(ctx: Ctx, extra: str = "") -> str:
    most = "".join(f'<li><a href="{a.path}index.html">{e(a.title)}</a></li>' for a in ctx.most_read)
    partners = ""
    if ctx.offsite_base:
        partners = (
            f'<div class="widget partners"><h2 class="widget-title">From our partners</h2>'
            f'<ul><li><a href="{ctx.offsite_base}/news/plains-radio-spring-drive/">'
            f"Plains Public Radio: spring pledge drive</a></li>"
            f'<li><a href="{ctx.offsite_base}/">High Country Weekly</a></li></ul></div>'
        )
    return (
        f'<aside class="sidebar">{extra}'
        f'<div class="widget most-read"><h2 class="widget-title">Most read</h2><ol>{most}</ol></div>'
        '<div class="newsletter-box"><p class="box-title">The Morning Ledger</p>'
        "<p>Get the day's top stories from the high plains in your inbox every morning.</p>"
        '<form action="/newsletter/" method="get"><input type="email" name="email" '
        'placeholder="Your email address"><button type="submit">Sign up</button></form></div>'
        f'<div class="ad-slot">Advertisement</div>{partners}</aside>'
    )


def _footer(ctx: Ctx) -> str:
    sections = "".join(f'<li><a href="/{slug}/">{name}</a></li>' for slug, name in SECTIONS)
    links = [("/about/", "About us"), ("/contact/", "Contact"), ("/privacy/", "Privacy policy")]
    if ctx.full:
        links += [("/newsletter/", "Newsletters"), ("/feed/", "RSS"), ("/private/staff/", "Staff login")]
    own = "".join(f'<li><a href="{href}">{text}</a></li>' for href, text in links + list(ctx.footer_links))
    tools = ""
    if ctx.trap_links:
        items = "".join(f'<li><a href="{e(href)}">{e(text)}</a></li>' for href, text in ctx.trap_links)
        tools = f'<div class="footer-col archive-tools"><p class="footer-title">Archive tools</p><ul>{items}</ul></div>'
    partners = ""
    if ctx.offsite_base:
        partners = (
            f'<div class="footer-col"><p class="footer-title">Network</p><ul>'
            f'<li><a href="{ctx.offsite_base}/about/">High Country Weekly</a></li>'
            f'<li><a href="{ctx.offsite_base}/2025/03/14/regional-water-talks/">'
            f"Regional water talks</a></li></ul></div>"
        )
    return (
        '<footer class="site-footer">'
        f'<div class="footer-col"><p class="footer-title">{SITE_NAME}</p><ul>{own}</ul></div>'
        f'<div class="footer-col"><p class="footer-title">Sections</p><ul>{sections}</ul></div>'
        f"{tools}{partners}"
        f'<p class="copyright">&copy; 2025 {SITE_NAME}. All rights reserved.</p>'
        f'<p class="print-only">Printed from {SITE_NAME}</p></footer>'
    )


def layout(
    ctx: Ctx,
    *,
    path: str,
    title: str,
    kind: str,
    main: str,
    crumbs: Iterable[tuple[str, str]] = (),
    head: str = "",
    sidebar_extra: str = "",
    section: str | None = None,
    article_css: bool = False,
) -> str:
    """The shared page shell around ``main``."""
    base = ctx.base
    trail = [f'<a href="{base}/">Home</a>']
    trail += [f'<a href="{base}{href}">{e(text)}</a>' if href else f"<span>{e(text)}</span>" for href, text in crumbs]
    crumbs_html = (
        f'<nav class="breadcrumbs" aria-label="Breadcrumb">{" &rsaquo; ".join(trail)}</nav>' if kind != "home" else ""
    )
    article_link = '<link rel="stylesheet" href="/static/css/article.css">\n' if article_css else ""
    full_title = title if kind == "home" else f"{title} | {SITE_NAME}"
    newsletter = '<a href="/newsletter/">Newsletters</a>' if ctx.full else ""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{e(full_title)}</title>\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<link rel="canonical" href="{base}{path}">\n'
        f'<link rel="alternate" type="application/rss+xml" title="{SITE_NAME} &raquo; Feed" '
        f'href="{base}/feed/">\n'
        '<link rel="stylesheet" href="/static/css/main.css">\n'
        f"{article_link}"
        '<link rel="stylesheet" href="/static/css/print.css" media="print">\n'
        f"<style>\n{STYLE_BLOCK}\n</style>\n"
        f'<meta property="og:site_name" content="{SITE_NAME}">\n'
        f'<meta property="og:url" content="{base}{path}">\n'
        f"{head}</head>\n"
        f'<body class="page-{kind}">\n'
        '<div id="cookie-banner" class="cookie-banner"><p>We use cookies to understand how readers '
        'use this site. <a href="/privacy/">Read our privacy policy</a>.</p>'
        '<button type="button">Accept</button></div>\n'
        '<a class="skip-link" href="#main">Skip to content</a>\n'
        '<header class="site-header">'
        f'<div class="top-bar"><span class="masthead-date">{TODAY}</span> '
        '<span class="breaking" style="margin-left:12px">Road closures: check conditions</span> '
        f"{newsletter}</div>"
        f'<div class="brand"><a class="logo" href="{base}/"><img src="/static/img/logo.svg" '
        f'alt="{SITE_NAME}"></a><p class="tagline">Independent news for the high plains since 1911</p></div>'
        f'<nav class="main-menu" aria-label="Sections">{_menu(section, ctx.full)}</nav>'
        '<form class="search" action="/search/" method="get" role="search">'
        '<input type="search" name="q" placeholder="Search"><button>Search</button></form>'
        "</header>\n"
        f'<nav class="mobile-menu" aria-label="Mobile">{_menu(section, ctx.full)}</nav>\n'
        f'{crumbs_html}\n<div class="container">\n<main id="main" class="content">\n{main}\n</main>\n'
        f"{_sidebar(ctx, sidebar_extra)}\n</div>\n{_footer(ctx)}\n</body>\n</html>\n"
    )


def _jsonld(ctx: Ctx, art: Article) -> str:
    data = {
        "@context": "https://schema.org",
        "@type": "NewsArticle",
        "headline": art.title,
        "datePublished": art.published.isoformat(),
        "author": [{"@type": "Person", "name": a.name} for a in art.authors],
        "publisher": {"@type": "Organization", "name": SITE_NAME},
        "mainEntityOfPage": ctx.base + art.path,
        "articleSection": SECTION_NAMES[art.section],
    }
    if art.modified:
        data["dateModified"] = art.modified.isoformat()
    return f'<script type="application/ld+json">{json.dumps(data)}</script>\n'


def article_page(ctx: Ctx, art: Article) -> str:
    head = (
        f'<meta name="description" content="{e(art.standfirst)}">\n'
        f'<meta property="og:type" content="article">\n'
        f'<meta property="og:title" content="{e(art.title)}">\n'
    )
    if "meta" in art.meta:
        head += f'<meta property="article:published_time" content="{art.published.isoformat()}">\n'
        if art.modified:
            head += f'<meta property="article:modified_time" content="{art.modified.isoformat()}">\n'
    if "jsonld" in art.meta:
        head += _jsonld(ctx, art)
    text = visible_date(art.published, art.date_style)
    if "time" in art.meta:
        date_html = f'<time datetime="{art.published.isoformat()}">{text}</time>'
    else:
        date_html = f"<span>{text}</span>"
    updated = ""
    if art.modified:
        hours = max(1, int((art.modified - art.published).total_seconds() // 3600))
        when = (
            f"{hours} hours ago",
            f"{hours} hours after publication",
            f"{short_date(art.modified)}, {art.modified:%H:%M}",
        )[art.idx // 3 % 3]
        updated = f'<div class="updated">Updated {when}</div>'
    body = list(f"<p>{e(p)}</p>" for p in art.paragraphs)
    if art.related:
        rel = art.related[0]
        body.insert(
            min(2, len(body)),
            f'<aside class="inline-related"><span class="label">Read also'
            f'</span> <a href="{rel.path}">{e(rel.title)}</a></aside>',
        )
    kick_style = ' style="color:#8a1c1c"' if art.idx % 3 == 0 else ""
    tags = ""
    if ctx.full and art.tags:
        tags = (
            '<div class="tag-list"><span>Tags:</span> '
            + " ".join(f'<a href="/tag/{t}/" rel="tag">{e(t.replace("-", " ").title())}</a>' for t in art.tags)
            + "</div>"
        )
    bios = "".join(f"<p><strong>{e(a.name)}</strong> {e(a.bio)}</p>" for a in art.authors)
    slug = art.path.rstrip("/").rsplit("/", 1)[-1]
    main = (
        '<article class="story">'
        f'<p class="kicker"{kick_style}><a href="/{art.section}/">{SECTION_NAMES[art.section]}</a></p>'
        f'<h1 class="headline">{e(art.title)}</h1>'
        f'<p class="standfirst">{e(art.standfirst)}</p>'
        f'<div class="byline">By {author_links(ctx, art.authors)}</div>'
        f'<div class="dateline">{date_html}</div>{updated}'
        '<div class="share-tools"><button type="button">Share</button>'
        '<button type="button">Email</button><button type="button">Print</button></div>'
        f'<figure><img src="/static/img/{slug}.png" alt="{e(art.caption)}">'
        f"<figcaption>{e(art.caption)} Photo: {e(art.authors[0].name)}/{SITE_NAME}</figcaption></figure>"
        f'<div class="article-body">{"".join(body)}</div>'
        '<div class="ad-slot">Advertisement</div>'
        f'{tags}<div class="author-bio">{bios}</div></article>'
        f"{comments_block(art)}"
    )
    related = "".join(
        f'<li><a href="{r.path}">{e(r.title)}</a> <small>{short_date(r.published)}</small></li>' for r in art.related
    )
    extra = f'<div class="widget related"><h2 class="widget-title">Related stories</h2><ul>{related}</ul></div>'
    return layout(
        ctx,
        path=art.path,
        title=art.title,
        kind="article",
        main=main,
        head=head,
        crumbs=[(f"/{art.section}/", SECTION_NAMES[art.section]), ("", art.title)],
        sidebar_extra=extra,
        section=art.section,
        article_css=True,
    )


def comments_block(art: Article) -> str:
    if not art.comments:
        return ""
    items = "".join(
        f'<li class="comment"><div class="comment-author">{e(c.user)}</div>'
        f'<div class="comment-time">{MONTHS[c.posted.month - 1]} {c.posted.day}, {c.posted.year} '
        f'at {c.posted:%I:%M %p}</div><p class="comment-text">{e(c.text)}</p></li>'
        for c in art.comments
    )
    return (
        f'<section class="comments" id="comments"><h2 class="comments-title">'
        f'{len(art.comments)} comments</h2><ol class="comment-list">{items}</ol></section>'
    )


def listing_page(
    ctx: Ctx,
    *,
    path: str,
    title: str,
    kind: str,
    intro: str,
    articles: Sequence[Article],
    page: int = 1,
    pages: int = 1,
    page_base: str = "",
    section: str | None = None,
    crumbs: Sequence[tuple[str, str]] = (),
) -> str:
    """Section, tag and author pages: title as a styled ``div``, cards and pagination."""
    cards = "".join(card(ctx, a) for a in articles)
    nav = ""
    if pages > 1:
        parts = []
        if page > 1:
            prev = page_base if page == 2 else f"{page_base}page/{page - 1}/"
            parts.append(f'<a class="prev" href="{prev}">&lsaquo; Newer stories</a>')
        shown = sorted({1, pages} | set(range(max(1, page - 2), min(pages, page + 2) + 1)))
        for prev_n, n in zip([0] + shown, shown):
            if n - prev_n > 1:
                parts.append('<span class="dots">&hellip;</span>')
            href = page_base if n == 1 else f"{page_base}page/{n}/"
            parts.append(f'<span class="current">{n}</span>' if n == page else f'<a href="{href}">{n}</a>')
        if page < pages:
            parts.append(f'<a class="next" href="{page_base}page/{page + 1}/">Older stories &rsaquo;</a>')
        nav = f'<nav class="pagination">{" ".join(parts)}</nav>'
    heading = title if page == 1 else f"{title} &ndash; page {page}"
    main = (
        f'<div class="section-title">{heading}</div><p class="section-intro">{e(intro)}</p>'
        f'<div class="story-list">{cards}</div>{nav}'
    )
    head = ""
    if kind == "section" and section and ctx.full:
        head = (
            f'<link rel="alternate" type="application/atom+xml" title="{title} &raquo; Atom" '
            f'href="{ctx.base}/{section}/feed/atom/">\n'
        )
    return layout(
        ctx,
        path=path,
        title=title if page == 1 else f"{title} - Page {page}",
        kind=kind,
        main=main,
        crumbs=crumbs,
        section=section,
        head=head,
    )


def home_page(ctx: Ctx, lead: Article, blocks: Sequence[tuple[str, Sequence[Article]]], media: str = "") -> str:
    top = card(ctx, lead, lead=True, kicker=True, href=f"{lead.path}?utm_source=homepage&utm_medium=promo")
    parts = [f'<section class="top-story">{top}</section>']
    for slug, arts in blocks:
        cards = "".join(card(ctx, a) for a in arts)
        parts.append(
            f'<section class="section-block"><div class="section-title">'
            f'<a href="/{slug}/">{SECTION_NAMES[slug]}</a></div>{cards}</section>'
        )
    head = f'<meta name="description" content="{SITE_NAME}: news, politics and life on the high plains.">\n'
    return layout(
        ctx,
        path="/",
        title=f"{SITE_NAME} | News from the high plains",
        kind="home",
        main="".join(parts) + media,
        head=head,
    )


def simple_page(
    ctx: Ctx,
    *,
    path: str,
    title: str,
    kind: str,
    paragraphs: Sequence[str],
    crumbs: Sequence[tuple[str, str]] = (),
    extra: str = "",
) -> str:
    """About/contact/privacy-like pages; ``extra`` is raw HTML appended after the text."""
    body = "".join(f"<p>{e(p)}</p>" for p in paragraphs)
    main = f'<div class="page"><h1 class="page-title">{e(title)}</h1>{body}{extra}</div>'
    return layout(ctx, path=path, title=title, kind=kind, main=main, crumbs=list(crumbs) or [("", title)])
