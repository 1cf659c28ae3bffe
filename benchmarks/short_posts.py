"""Short blog posts on generated 2012-style pages: is the body the post, and only the post?

The catastrophic misses on old news and blog pages are short posts (a picture and two lines) whose
sidebar "about me" box, comment thread or browser-upgrade notice is returned as the body. This script
builds such pages in six common layouts (a minimal blog, Blogger, WordPress, Typepad, a table
layout whose side cell is named "side", the same table with that cell named by nothing), each with
and without an about box, a comment thread and an upgrade notice, with the post written as
paragraphs or as ``<br>`` lines, for three posts: 288 pages. A page passes when the body
holds every line of the post and none of the box, the comments or the notice. It prints the passes
per layout for each system (``--systems``: the peers run with benchmarks/extraction.py's settings)
and, with ``--show N``, each system's first N failures.

Nothing here is tuned on: the pages are written from the layouts' general shape, and the numbers
show what the short-post rules (docs/decisions/body-news.md) do on structures the development
sets hardly have.

Usage: .venv/bin/python benchmarks/short_posts.py [--show N] [--systems newscrawl,trafilatura,readability]
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from typing import Any

URL = "https://seanotes.example/2012/03/post.html"
POSTS = [
    (
        "Morning fog at the harbour",
        [
            "We walked down to the harbour this morning and the fog was just lifting off the water.",
            "Here is the view from the old pier, taken with my little camera.",
        ],
    ),
    (
        "The quilt is done",
        [
            "Finished the quilt for my granddaughter at last!",
            "It took me almost four months but I think she will love the colours.",
        ],
    ),
    (
        "Fresh bread",
        [
            "New recipe on the blog next week.",
            "For now, a picture of the bread I baked this afternoon, still warm from the oven.",
        ],
    ),
]
ABOUT = (
    "I am a retired teacher living by the sea with my husband and two cats. I write about walks, "
    "gardens, old boats and the small pleasures of everyday life. Thank you for visiting my blog "
    "and for all your kind comments over the years. Feel free to leave a note, I read every one."
)
COMMENTS = [
    "What a lovely picture, the light is wonderful. I wish I could walk there every morning like you do.",
    "Beautiful! The fog makes it look like a painting. Thank you for sharing your walks with us again.",
    "I remember that pier from my childhood holidays, we used to fish there with my father every summer.",
]
UPGRADE = (
    "You are using an outdated browser. Please upgrade your browser or activate Google Chrome Frame "
    "to improve your experience."
)
LAYOUTS = {
    "minimal": (
        '<div id="header"><h1><a href="/">Sea Notes</a></h1><p>Walks by the sea</p></div>'
        '<div id="main"><div class="post">{h}<div class="post-header">Posted by Mary on Saturday, March 3, 2012</div>'
        '<div class="post-body">{post}</div><div class="post-footer">Labels: <a href="/l/walks">walks</a></div></div>'
        '{comments}</div><div id="sidebar"><div class="widget profile"><h2>About Me</h2><img src="/me.jpg">'
        '<p>{about}</p></div><div class="widget"><h2>Blog Archive</h2><ul><li><a href="/2012/03">March (4)</a>'
        '</li><li><a href="/2012/02">February (7)</a></li></ul></div></div>'
    ),
    "blogger": (
        '<div class="outer-wrapper"><div id="header-wrapper"><div class="header"><h1 class="title"><a href="/">'
        'Sea Notes</a></h1><p class="description">Walks by the sea</p></div></div><div id="main-wrapper">'
        '<div class="date-outer"><h2 class="date-header"><span>Saturday, March 3, 2012</span></h2>'
        '<div class="post-outer"><div class="post hentry">{h}<div class="post-body entry-content">{post}</div>'
        '<div class="post-footer">Posted by Mary at 10:02 AM <a href="#">{n} comments</a></div></div></div></div>'
        '{comments}</div><div id="sidebar-wrapper"><div class="sidebar section"><div class="widget Profile">'
        '<h2>About Me</h2><div class="widget-content"><img src="/me.jpg"><dl class="profile-datablock">'
        '<dd class="profile-textblock">{about}</dd></dl></div></div><div class="widget BlogArchive">'
        '<h2>Blog Archive</h2><ul><li><a href="/2012/">2012 (14)</a></li><li><a href="/2011/">2011 (52)</a></li>'
        "</ul></div></div></div></div>"
    ),
    "wordpress": (
        '<div id="page"><header id="masthead"><h1 class="site-title"><a href="http://seanotes.example/" rel="home">'
        'Sea Notes</a></h1><h2 class="site-description">Walks by the sea</h2><nav><a href="/">Home</a> '
        '<a href="/about">About</a></nav></header><div id="main"><div id="primary"><div id="content">'
        '<article class="post type-post"><header class="entry-header">{h}<div class="entry-meta">Posted on '
        '<time>March 3, 2012</time> by Mary</div></header><div class="entry-content">{post}</div>'
        '<footer class="entry-meta">This entry was posted in <a href="/c">Walks</a>.</footer></article>{comments}'
        '</div></div><div id="secondary" class="widget-area"><aside class="widget widget_text">'
        '<h3 class="widget-title">About me</h3><div class="textwidget">{about}</div></aside><aside class="widget">'
        '<h3>Archives</h3><ul><li><a href="/2012/03">March 2012</a></li></ul></aside></div></div>'
        '<footer id="colophon">Proudly powered by WordPress</footer></div>'
    ),
    "typepad": (
        '<div id="container"><div id="banner"><h1 id="banner-header"><a href="http://seanotes.example/" '
        'accesskey="1">Sea Notes</a></h1><h2 id="banner-description">Walks by the sea</h2></div>'
        '<div id="pagebody"><div id="alpha"><div class="entry">{h}<div class="entry-content"><div class="entry-body">'
        '{post}</div></div><p class="entry-footer">Posted at 10:02 AM | <a href="#">Permalink</a></p></div>'
        '{comments}</div><div id="beta"><div class="module-about module"><h2 class="module-header">About</h2>'
        '<div class="module-content">{about}</div></div></div></div></div>'
    ),
    "table": (
        '<table width="900"><tr><td colspan="2"><h1><a href="/index.html">Sea Notes</a></h1></td></tr><tr>'
        '<td width="650" valign="top">{h}<p class="date">March 3, 2012</p>{post}{comments}</td>'
        '<td width="250" valign="top" class="side"><b>About me</b><br>{about}<br><br><b>Links</b><br>'
        '<a href="/a">Friends</a><br><a href="/b">Photos</a></td></tr></table>'
    ),
}
# the same table with its side cell named by nothing: only the cells' order and widths tell them apart
LAYOUTS["plain table"] = LAYOUTS["table"].replace(' class="side"', "")


def page(layout: str, post: int, about: bool, comments: bool, notice: bool, lines_as: str) -> str:
    title, lines = POSTS[post]
    text = (
        "".join(f"<p>{line}</p>" for line in lines)
        if lines_as == "p"
        else '<img src="/x.jpg"><br>' + "<br>".join(lines)
    )
    thread = ""
    if comments:
        entries = "".join(
            f'<dt class="comment-author">Anne said...</dt><dd class="comment-body"><p>{c}</p></dd>'
            f'<dd class="comment-footer">March 3, 2012 at 10:12 AM</dd>'
            for c in COMMENTS
        )
        thread = f'<div id="comments" class="comments"><h4>3 comments:</h4><dl id="comments-block">{entries}</dl></div>'
    over = f'<div class="browsehappy">{UPGRADE}</div>' if notice else ""
    heading = f'<h3 class="post-title entry-title"><a href="/2012/03/post.html">{title}</a></h3>'
    if layout == "wordpress":
        heading = f'<h1 class="entry-title">{title}</h1>'
    body = LAYOUTS[layout].format(
        h=heading, post=text, comments=thread, about=ABOUT if about else "Mary, 64.", n=3 if comments else 0
    )
    head = f'<head><meta charset="utf-8"><title>Sea Notes: {title}</title></head>'
    return f"<!doctype html><html>{head}<body>{over}{body}</body></html>"


def passes(body: str | None, post: int) -> bool:
    text = body or ""
    return (
        all(line in text for line in POSTS[post][1])
        and ABOUT not in text
        and not any(c in text for c in COMMENTS)
        and UPGRADE not in text
    )


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from extraction import generated_pages_cli  # the peers with the settings of benchmarks/extraction.py

    args, systems = generated_pages_cli(__doc__ or "")
    print(f"{'layout':11} " + " ".join(f"{name:>12}" for name in systems) + f" {'pages':>6}")
    totals = dict.fromkeys(systems, 0)
    pages = 0
    failures: dict[str, list[tuple[tuple[Any, ...], str]]] = {name: [] for name in systems}
    for layout in LAYOUTS:
        passed = dict.fromkeys(systems, 0)
        combos = list(itertools.product(range(len(POSTS)), (False, True), (False, True), (False, True), ("p", "br")))
        for combo in combos:
            html = page(layout, *combo)
            for name, run in systems.items():
                body = run(html.encode(), html, URL).get("body")
                if passes(body, combo[0]):
                    passed[name] += 1
                elif len(failures[name]) < args.show:
                    failures[name].append(((layout, *combo), (body or "")[:120].replace("\n", " | ")))
        pages += len(combos)
        for name in systems:
            totals[name] += passed[name]
        print(f"{layout:11} " + " ".join(f"{passed[name]:12d}" for name in systems) + f" {len(combos):6d}")
    print(f"{'all':11} " + " ".join(f"{totals[name] / pages:12.1%}" for name in systems) + f" {pages:6d}")
    for name, shown in failures.items():
        for (layout, post, about, comments, notice, lines_as), start in shown:
            print(f"{name} {layout} post={post} about={about} comments={comments} notice={notice} {lines_as}: {start}")


if __name__ == "__main__":
    main()
