"""The parts of a news page around its story, on generated pages: is each in the body or out of it?

Four families of generated article pages (one story of four to six paragraphs), each varied over
markup and placement:

- ``leads``: a standfirst under the headline (short, medium, long; in the header as ``<p>``,
  ``<h2 class="dek">``, a subtitle block, or a bold lead after the byline), with and without
  declared NewsArticle metadata. Passes when the body opens with the standfirst and holds the story.
- ``closings``: a closing line (a wire credit, "contributed to this report", a sign-off, a contact
  line) before a trust line, a share bar, tags or a related list. Passes when the line stays.
- ``chrome``: 19 kinds of block inside the story's container (a newsletter box, a "more from"
  list, an inline sign-up line, a subscription prompt, social embeds, a table of contents, "ALSO
  READ", a related box, an ad label, a video strip, a trust box, a gift line, a comments link, tags,
  an author bio, an "about the author" box, a photo credit, an image credit line, a correction) at
  the top, the middle or the end. Passes when the story is whole and the block is out (a correction
  and a quoted tweet's text belong in).
- ``live``: a live blog's timed posts with one kind of live-blog chrome above or below the feed (key
  events, a "key events only" toggle, a LIVE status line, share links under each post, "load
  more"). Passes when every post is in and nothing else but the posts' times and the headline.

Prints the passes per family for each system (``--systems``: the peers run with
benchmarks/extraction.py's settings) and, with ``--show N``, each system's first N failures.
Nothing is tuned on these pages: they are written from the general shape of news sites.

Usage: .venv/bin/python benchmarks/news_structure.py [--show N] [--systems newscrawl,trafilatura,readability]
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

URL = "https://citytimes.example/news/2024/03/05/harbour-plan"
TITLE = "Council approves harbour plan after two years of debate"
STORY = [
    "The city council voted on Tuesday night to approve a new plan for the harbour district, ending two "
    "years of debate over how the old docks should be used.",
    "Under the plan, the eastern warehouses will be turned into housing, while the western piers remain "
    "open for fishing boats and a small ferry service.",
    "Residents who spoke at the meeting were divided. Some welcomed the new homes, others said the plan "
    "did too little to protect the working harbour.",
    "The mayor said construction could begin next spring if the regional government approves the funding "
    "request submitted last month.",
]
DECLARED = f'<script type="application/ld+json">{{"@type":"NewsArticle","headline":"{TITLE}"}}</script>'

LEADS = {
    "short": "The vote ends two years of debate over the docks.",
    "medium": "The vote ends two years of debate over the old docks, but opponents say they will fight on.",
    "long": "The vote ends two years of debate over the old docks, but opponents say they will ask for a "
    "review of the environmental study before any building starts.",
}
LEAD_HEADERS = {
    "p in header": '<header><h1>{t}</h1><p class="standfirst">{lead}</p>'
    '<div class="byline">By Mara Stein</div></header>',
    "h2 dek": '<header><h1>{t}</h1><h2 class="dek">{lead}</h2>'
    '<p class="byline">By Mara Stein · March 5, 2024</p></header>',
    "subtitle div": '<div class="article-header"><h1>{t}</h1><div class="subtitle">{lead}</div></div>'
    '<div class="meta"><span>By Mara Stein</span> <time>March 5, 2024</time></div>',
    "lead after byline": '<h1>{t}</h1><div class="byline">By Mara Stein | March 5, 2024</div>'
    '<p class="lead"><strong>{lead}</strong></p>',
}
CLOSINGS = [
    "Reporting by Mara Stein; Editing by John Smith",
    "The Associated Press contributed to this report.",
    "— Mara Stein, City Times",
    "Contact the reporter at mstein@citytimes.example.",
]
AFTER_CLOSING = {
    "trust line": '<p class="trust"><a href="/standards">Our Standards: The City Times Trust Principles.</a></p>',
    "share bar": '<div class="share"><a href="#">Share</a> <a href="#">Tweet</a> <a href="#">Email</a></div>',
    "tags": '<div class="tags"><a href="/t/1">Harbour</a> <a href="/t/2">Council</a></div>',
    "related list": '<div class="related"><h3>Related</h3><ul><li><a href="/r/1">School board delays vote on new '
    'calendar after parents protest</a></li><li><a href="/r/2">Bridge repairs to close two lanes through '
    "summer</a></li></ul></div>",
    "nothing": "",
}
CHROME = {
    "newsletter box": '<div class="newsletter-signup"><h3>Get the Morning Briefing</h3><p>Sign up for our free '
    "newsletter and get the day's top stories delivered to your inbox every morning.</p><form><input "
    'type="email" placeholder="Your email"><button>Sign up</button></form></div>',
    "more from list": '<aside class="more-from"><h2>More from Local News</h2><ul><li><a href="/a1">School board '
    'delays vote on new calendar after parents protest</a></li><li><a href="/a2">Bridge repairs to close two '
    'lanes through the summer months</a></li><li><a href="/a3">New bakery opens in the old post office '
    "building downtown</a></li></ul></aside>",
    "inline sign-up": '<p><em><a href="/newsletters">Sign up for the Morning Briefing</a> to get the '
    "day's news in your inbox.</em></p>",
    "subscribe prompt": '<div class="inline-cta"><p>Support local journalism. Subscribe today for unlimited '
    'access to every story, for just $1 a week.</p><a class="button" href="/subscribe">Subscribe now</a></div>',
    "instagram embed": '<blockquote class="instagram-media"><div><a href="https://www.instagram.com/p/x/">View '
    'this post on Instagram</a></div><p><a href="https://www.instagram.com/p/x/">A post shared by City Times '
    "(@citytimes)</a></p></blockquote>",
    "table of contents": '<div class="toc"><p>In this article:</p><ul><li><a href="#vote">The vote</a></li>'
    '<li><a href="#next">What happens next</a></li></ul></div>',
    "also read": '<p><strong>ALSO READ |</strong> <a href="/news/2024/03/04/ferry">Ferry service to add two '
    "routes to the islands this autumn</a></p>",
    "related box": '<div class="embed"><h4>Related Story</h4><a href="/news/2024/02/12/docks"><img src="/d.jpg">'
    "<span>What the old docks could become: five ideas from residents</span></a></div>",
    "ad label": '<div class="ad-slot"><span>Advertisement</span></div>',
    "video strip": '<div class="recommended-videos"><h3>Recommended videos</h3><ul><li><a href="/v/1">Storm '
    'hits the coast</a></li><li><a href="/v/2">Ten places to eat this weekend</a></li><li><a href="/v/3">The '
    "best parks in town</a></li></ul></div>",
    "trust box": '<div class="trust-box"><h4>How we report</h4><p>Our reporters attend every council meeting. '
    "Read our ethics policy and corrections policy.</p></div>",
    "gift line": "<div><button>Share this article</button><p>Gift this article: subscribers can share 10 "
    "articles a month.</p></div>",
    "comments link": '<div class="comments-cta"><a href="#comments">Join the conversation (12 comments)</a></div>',
    "tags": '<div class="article-tags"><span>Topics:</span> <a href="/t/council">City council</a> '
    '<a href="/t/housing">Housing</a> <a href="/t/harbour">Harbour</a></div>',
    "author bio": '<div class="author-bio"><img src="/authors/stein.jpg" alt=""><p><strong>Mara Stein</strong> '
    "is a senior reporter covering city hall and housing for the City Times. She joined the paper in 2019.</p>"
    '<a href="/authors/mara-stein">More stories by Mara Stein</a></div>',
    "about the author": '<section class="about-author"><h3>About the author</h3><p>Mara Stein has covered local '
    "politics for ten years. Send her tips at mstein@citytimes.example.</p></section>",
    "photo credit": '<figure><img src="/harbour.jpg" alt="The harbour"><figcaption><span class="credit">Photo: '
    "Jane Doe / City Times</span></figcaption></figure>",
    "image credit line": '<p class="image-credit">Top image: Getty Images</p>',
    "correction": "<p><em>Correction: An earlier version of this story misstated the date of the next "
    "hearing.</em></p>",
    "quoted tweet": '<blockquote class="twitter-tweet"><p>The harbour plan passed 7-2 tonight. Construction '
    'could start next spring.</p>&mdash; Mara Stein (@marastein) <a href="https://twitter.com/marastein/'
    'status/1">March 5, 2024</a></blockquote>',
}
BELONGS = {"correction", "quoted tweet"}  # text of the story itself


def _page(article: str, declared: bool = False) -> str:
    head = f"<title>{TITLE} | City Times</title>" + (DECLARED if declared else "")
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">{head}</head><body><header><nav>'
        '<a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav></header><main>'
        f'<article>{article}</article><aside class="sidebar"><h2>Most read</h2><ol><li><a href="/m1">Storm '
        'warning for the coast tonight</a></li><li><a href="/m2">Ten places to eat this weekend</a></li></ol>'
        "</aside></main><footer><p>© 2024 City Times. All rights reserved.</p></footer></body></html>"
    )


def _story(extra_at: int | None = None, extra: str = "") -> str:
    paras = [f"<p>{p}</p>" for p in STORY]
    if extra_at is not None:
        paras.insert(extra_at, extra)
    return '<div class="article-body">' + "".join(paras) + "</div>"


Case = tuple[str, str, str]  # (family, description, html)


def lead_cases() -> Iterator[tuple[Case, str]]:
    for header, markup in LEAD_HEADERS.items():
        for size, lead in LEADS.items():
            for declared in (False, True):
                html = _page(markup.format(t=TITLE, lead=lead) + _story(), declared)
                yield ("leads", f"{header}, {size}, declared={declared}", html), lead


def closing_cases() -> Iterator[tuple[Case, str]]:
    for closing in CLOSINGS:
        for after, markup in AFTER_CLOSING.items():
            for declared in (False, True):
                article = f"<h1>{TITLE}</h1>" + _story(len(STORY), f"<p>{closing}</p>{markup}")
                yield (
                    ("closings", f"{closing[:30]!r} before {after}, declared={declared}", _page(article, declared)),
                    closing,
                )


def chrome_cases() -> Iterator[tuple[Case, str]]:
    for kind, markup in CHROME.items():
        for where, at in (("top", 0), ("middle", 2), ("end", len(STORY))):
            byline = '<div class="byline">By Mara Stein · <time datetime="2024-03-05">March 5, 2024</time></div>'
            article = f"<h1>{TITLE}</h1>{byline}"
            yield ("chrome", f"{kind} at the {where}", _page(article + _story(at, markup), True)), kind


LIVE_TITLE = "Harbour vote live: council debates the plan"
LIVE_POSTS = [
    "The council meeting has started. Members are expected to debate the harbour plan for at least two hours.",
    "The mayor opened the debate by saying the plan would bring eight hundred new homes to the eastern docks.",
    "Fishermen in the public gallery held up signs asking the council to keep the western piers open.",
    "The council has approved the harbour plan by seven votes to two. Construction could begin next spring.",
]
LIVE_CHROME = {
    "key events": '<div class="key-events"><h3>Key events</h3><ul><li><a href="#post-4">Council approves the '
    'plan</a></li><li><a href="#post-2">Mayor opens the debate</a></li></ul></div>',
    "toggle": '<div class="live-filter"><label><input type="checkbox"> Show key events only</label></div>',
    "status line": '<div class="live-status"><span class="badge">LIVE</span> <span>Updated 5 minutes ago</span></div>',
    "post share links": "",  # each post ends with its own share links
    "load more": '<div class="live-more"><a href="?page=2">Load more updates</a></div>',
}


def live_cases() -> Iterator[tuple[Case, str]]:
    """A live blog: timed posts in a feed, with one kind of live-blog chrome above or below it."""
    for kind, markup in LIVE_CHROME.items():
        for where in ("above", "below"):
            posts = "".join(
                f'<div class="live-post" id="post-{n}"><time datetime="2024-03-05T{18 + n}:00:00Z">{18 + n}:00</time>'
                f"<p>{text}</p>"
                + ('<div class="share"><a href="#">Share</a> <a href="#">Copy link</a></div>' if not markup else "")
                + "</div>"
                for n, text in reversed(list(enumerate(LIVE_POSTS, 1)))
            )
            feed = f'<div class="live-feed">{posts}</div>'
            article = f"<h1>{LIVE_TITLE}</h1>" + (markup + feed if where == "above" else feed + markup)
            yield ("live", f"{kind} {where} the feed", _page(article, True)), kind


_POST_TIME = re.compile(r"\d\d:\d\d")


def passes(family: str, body: str | None, expected: str) -> bool:
    text = body or ""
    lines = text.split("\n")
    whole = all(p in text for p in STORY)
    if family == "leads":
        return whole and lines[0] == expected
    if family == "closings":
        return whole and expected in lines
    if family == "live":  # every post in, nothing else but the posts' times (and the headline, as peers keep it)
        return all(p in text for p in LIVE_POSTS) and all(
            line in LIVE_POSTS or line == LIVE_TITLE or _POST_TIME.fullmatch(line) for line in lines if line
        )
    extra = [line for line in lines if line and line not in STORY]
    return whole and (bool(extra) if expected in BELONGS else not extra)


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from extraction import generated_pages_cli  # the peers with the settings of benchmarks/extraction.py

    args, systems = generated_pages_cli(__doc__ or "")
    cases = [*lead_cases(), *closing_cases(), *chrome_cases(), *live_cases()]
    families = list(dict.fromkeys(case[0] for case, _ in cases))
    passed = {(name, family): 0 for name in systems for family in families}
    counts = dict.fromkeys(families, 0)
    failures: dict[str, list[str]] = {name: [] for name in systems}
    for (family, description, html), expected in cases:
        counts[family] += 1
        for name, run in systems.items():
            body = run(html.encode(), html, URL).get("body")
            if passes(family, body, expected):
                passed[name, family] += 1
            elif len(failures[name]) < args.show:
                failures[name].append(f"{family}: {description}: {(body or '')[:100]!r}")
    print(f"{'family':10} " + " ".join(f"{name:>12}" for name in systems) + f" {'pages':>6}")
    for family in families:
        print(f"{family:10} " + " ".join(f"{passed[name, family]:12d}" for name in systems) + f" {counts[family]:6d}")
    total = len(cases)
    share = {name: sum(passed[name, family] for family in families) / total for name in systems}
    print(f"{'all':10} " + " ".join(f"{share[name]:12.1%}" for name in systems) + f" {total:6d}")
    for name, shown in failures.items():
        for line in shown:
            print(f"{name} {line}")


if __name__ == "__main__":
    main()
