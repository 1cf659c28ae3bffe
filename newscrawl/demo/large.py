"""A large demo site generated lazily from the request path (crawl and memory benchmarks).

Nothing is stored per page: article ``i`` (0 = newest) is rebuilt on demand from
``random.Random(seed * 1_000_003 + i)``, so a 100,000-page site costs no memory up front and the
same path always gives the same bytes. Pages: home, about/contact/privacy (plus ``/newsletter/``
when needed to make the count exact), section pages with pagination (20 stories a page, linking
every article of the section), and articles (linking 4 related stories of their section and the 5
"most read" of the site). ``len(site.truth) == n_pages`` exactly.

Article ``i``: section ``SECTIONS[i % 5]``; published ``2025-03-28 18:00 - i * 197 minutes``;
URL ``/story/<100000 + i>/<slug>/`` when ``i % 25 == 7``, else
``/<section>/<yyyy>/<mm>/<dd>/<slug>/``. A path is mapped back to ``i`` from its date (the few
candidates published that day) or its story id; a slug shared by two same-day articles of one
section gets ``-2``, ``-3``, ... so every path is unique. Dates, metadata and comments follow the
same per-index rules as the small demo site.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from datetime import date, datetime, timedelta
from functools import lru_cache

from newscrawl.demo import feeds, render, text
from newscrawl.demo.assets import LOGO_SVG, PLACEHOLDER_PNG, STYLESHEETS
from newscrawl.demo.base import DEFAULT_BASE, Site, split_target
from newscrawl.demo.model import SECTIONS, TZ, Article, Author, Comment, PageTruth
from newscrawl.demo.response import CSS, RSS, TEXT, Response, not_found, ok, redirect

PER_PAGE = 20
STEP = timedelta(minutes=197)
NEWEST = datetime(2025, 3, 28, 18, 0, tzinfo=TZ)
STATIC = {
    "/about/": ("About us", ["The Prairie Ledger is an independent newsroom of the high plains."]),
    "/contact/": ("Contact", ["Write to the newsroom at 114 Main Street, Harlan Falls."]),
    "/privacy/": ("Privacy policy", ["We collect the minimum information needed to run this site."]),
    "/newsletter/": ("Newsletters", ["The Morning Ledger arrives before seven every weekday."]),
}
SLUGS = [s for s, _ in SECTIONS]
_DATED = re.compile(r"^/([a-z]+)/(\d{4})/(\d{2})/(\d{2})/([a-z0-9-]+)/$")
_STORY = re.compile(r"^/story/(\d{6})/([a-z0-9-]+)/$")
_SECTION = re.compile(r"^/([a-z]+)/(?:page/(\d+)/)?$")


def _section_sizes(n_articles: int) -> list[int]:
    return [len(range(s, n_articles, len(SLUGS))) for s in range(len(SLUGS))]


def _count(n_articles: int) -> int:
    """Pages other than the optional newsletter page: home, 3 static, section pages, articles."""
    return 1 + 3 + sum(max(1, -(-k // PER_PAGE)) for k in _section_sizes(n_articles)) + n_articles


class LargeSite(Site):
    def __init__(self, n_pages: int = 2000, seed: int = 7) -> None:
        if not 10 <= n_pages <= 900_000:
            raise ValueError("a large site has 10 to 900,000 pages (story ids have 6 digits)")
        self.seed = seed
        self.n_pages = n_pages
        lo, hi = 0, n_pages
        while lo < hi:  # largest article count whose page count fits
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if _count(mid) <= n_pages else (lo, mid - 1)
        self.n_articles = lo
        self.static = list(STATIC)[:3] + (["/newsletter/"] if _count(lo) < n_pages else [])
        self.section_pages = [max(1, -(-k // PER_PAGE)) for k in _section_sizes(lo)]
        rng = random.Random(seed)
        self.authors = [
            Author(text.slugify(n), n, f"{n.split()[0]} reports for the Ledger.")
            for n in dict.fromkeys(text.person(rng) for _ in range(12))
        ]
        self.truth = LargeTruth(self)
        self._article = lru_cache(maxsize=256)(self._build_article)
        self._summary = lru_cache(maxsize=4096)(self._build_summary)
        self._title = lru_cache(maxsize=8192)(self._make_title)
        self._path = lru_cache(maxsize=8192)(self._make_path)

    # -- article generation ------------------------------------------------------------------
    def published(self, i: int) -> datetime:
        return NEWEST - i * STEP

    def _make_title(self, i: int) -> str:
        return text.headline(random.Random(f"{self.seed}:{i}:title"), SLUGS[i % len(SLUGS)])

    def _base_slug(self, i: int) -> str:
        return text.slugify(self._title(i))

    def _day_range(self, day: date) -> range:
        """Indices of the articles published on ``day``."""
        start = datetime(day.year, day.month, day.day, tzinfo=TZ)
        first = max(0, -(-(NEWEST - (start + timedelta(days=1)) + timedelta(microseconds=1)) // STEP))
        last = min(self.n_articles - 1, (NEWEST - start) // STEP)
        return range(first, last + 1)

    def path(self, i: int) -> str:
        """The URL path of article ``i``."""
        return self._path(i)

    def _make_path(self, i: int) -> str:
        slug = self._base_slug(i)
        if i % 25 == 7:
            return f"/story/{100000 + i}/{slug}/"
        pub = self.published(i)
        same = [
            j
            for j in self._day_range(pub.date())
            if j < i and j % len(SLUGS) == i % len(SLUGS) and j % 25 != 7 and self._base_slug(j) == slug
        ]
        if same:
            slug = f"{slug}-{len(same) + 1}"
        return f"/{SLUGS[i % len(SLUGS)]}/{pub:%Y/%m/%d}/{slug}/"

    def _build_summary(self, i: int) -> Article:
        """What listings need: everything but the body and comments (cheap)."""
        rng = random.Random(f"{self.seed}:{i}")
        section = SLUGS[i % len(SLUGS)]
        published = self.published(i)
        return Article(
            idx=i,
            path=self.path(i),
            title=self._title(i),
            standfirst=text.sentence(rng, section),
            section=section,
            published=published,
            modified=published + timedelta(hours=rng.randrange(2, 30)) if i % 3 == 0 else None,
            authors=tuple(rng.sample(self.authors, 2 if i % 6 == 0 else 1)),
            tags=(),
            paragraphs=(),
            caption=f"A view of {rng.choice(text.PLACES)}.",
            date_style=i % 5,
            meta=(("jsonld",), ("meta",), ("time",), ())[i % 4] + (("time",) if i % 8 == 0 else ()),
        )

    def _build_article(self, i: int) -> Article:
        summary = self._summary(i)
        rng = random.Random(f"{self.seed}:{i}:body")
        paragraphs = tuple(text.paragraphs(rng, summary.section, rng.randrange(4, 9)))
        comments: tuple[Comment, ...] = ()
        if i % 4 == 1:
            comments = tuple(
                sorted(
                    (
                        Comment(
                            rng.choice(text.HANDLES),
                            summary.published + timedelta(minutes=rng.randrange(30, 3000)),
                            text.comment_text(rng),
                        )
                        for _ in range(rng.randrange(3, 7))
                    ),
                    key=lambda c: c.posted,
                )
            )
        near = [i + d for d in (-10, -5, 5, 10) if 0 <= i + d < self.n_articles]
        return replace(summary, paragraphs=paragraphs, comments=comments, related=tuple(self._summary(j) for j in near))

    def article_at(self, i: int) -> Article:
        """Article ``i`` with body, comments and related stories."""
        return self._article(i)

    def index_of(self, path: str) -> int | None:
        """The article index behind ``path``, or None."""
        if m := _STORY.match(path):
            i = int(m.group(1)) - 100000
            return i if 0 <= i < self.n_articles and i % 25 == 7 and self.path(i) == path else None
        m = _DATED.match(path)
        if not m or m.group(1) not in SLUGS:
            return None
        try:
            day = date(int(m.group(2)), int(m.group(3)), int(m.group(4)))
        except ValueError:
            return None
        s = SLUGS.index(m.group(1))
        for i in self._day_range(day):
            if i % len(SLUGS) == s and i % 25 != 7 and self.path(i) == path:
                return i
        return None

    def article_paths(self) -> list[str]:
        return [self.path(i) for i in range(self.n_articles)]

    # -- pages ---------------------------------------------------------------------------------
    def section_page_paths(self) -> Iterator[str]:
        for slug, pages in zip(SLUGS, self.section_pages):
            for n in range(1, pages + 1):
                yield f"/{slug}/" if n == 1 else f"/{slug}/page/{n}/"

    def ctx(self, base: str) -> render.Ctx:
        most = tuple(self._summary(i) for i in range(min(5, self.n_articles)))
        extra = (("/newsletter/", "Newsletters"),) if "/newsletter/" in self.static else ()
        return render.Ctx(base=base, most_read=most, full=False, footer_links=extra)

    def resolve(self, path_and_query: str, base_url: str = DEFAULT_BASE) -> Response:
        base = base_url.rstrip("/")
        path, _ = split_target(path_and_query)
        if path in STYLESHEETS:
            return ok(STYLESHEETS[path], CSS)
        if path.startswith("/static/img/"):
            return ok(LOGO_SVG, "image/svg+xml") if path.endswith(".svg") else ok(PLACEHOLDER_PNG, "image/png")
        if path == "/robots.txt":
            return ok(feeds.robots(base, sitemap=False), TEXT)
        if path == "/feed/":
            items = [self._summary(i) for i in range(min(20, self.n_articles))]
            return ok(feeds.rss(base, items, render.SITE_NAME), RSS)
        if path.endswith("/index.html"):
            path = path[: -len("index.html")]
        html = self.render(path, base)
        if html is not None:
            return ok(html)
        if not path.endswith("/") and self.kind(path + "/"):
            return redirect(path + "/")
        return not_found()

    def kind(self, path: str) -> str | None:
        if path == "/":
            return "home"
        if path in self.static:
            return "static"
        if (m := _SECTION.match(path)) and m.group(1) in SLUGS:
            n = int(m.group(2) or 1)
            ok_page = 1 <= n <= self.section_pages[SLUGS.index(m.group(1))] and m.group(2) != "1"
            return "section" if ok_page else None
        return "article" if self.index_of(path) is not None else None

    def render(self, path: str, base: str) -> str | None:
        kind = self.kind(path)
        if kind is None:
            return None
        ctx = self.ctx(base)
        if kind == "home":
            blocks = [
                (slug, [self._summary(i) for i in range(s or len(SLUGS), self.n_articles, len(SLUGS))[:4]])
                for s, slug in enumerate(SLUGS)
            ]
            return render.home_page(ctx, self._summary(0), blocks)
        if kind == "static":
            title, paras = STATIC[path]
            return render.simple_page(ctx, path=path, title=title, kind="static", paragraphs=paras)
        if kind == "section":
            m = _SECTION.match(path)
            assert m is not None
            slug, n = m.group(1), int(m.group(2) or 1)
            s = SLUGS.index(slug)
            ids = range(s + (n - 1) * PER_PAGE * len(SLUGS), self.n_articles, len(SLUGS))[:PER_PAGE]
            name = dict(SECTIONS)[slug]
            return render.listing_page(
                ctx,
                path=path,
                title=name,
                kind="section",
                section=slug,
                page=n,
                pages=self.section_pages[s],
                page_base=f"/{slug}/",
                articles=[self._summary(i) for i in ids],
                intro=f"Every {name.lower()} story from the Ledger's archive.",
            )
        i = self.index_of(path)
        assert i is not None
        return render.article_page(ctx, self._article(i))


class LargeTruth(Mapping[str, PageTruth]):
    """The truth of a large site, computed on access (iteration yields pages in crawl order)."""

    def __init__(self, site: LargeSite) -> None:
        self.site = site

    def __len__(self) -> int:
        return self.site.n_pages

    def __iter__(self) -> Iterator[str]:
        yield "/"
        yield from self.site.static
        yield from self.site.section_page_paths()
        for i in range(self.site.n_articles):
            yield self.site.path(i)

    def __getitem__(self, path: str) -> PageTruth:
        kind = self.site.kind(path)
        if kind is None:
            raise KeyError(path)
        if kind != "article":
            return PageTruth(path, kind)
        i = self.site.index_of(path)
        assert i is not None
        return PageTruth(path, "article", self.site.article_at(i).truth())
