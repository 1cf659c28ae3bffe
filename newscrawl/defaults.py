"""Every ``NEWSCRAWL_*`` setting with its default value, documented in one place.

The add-on (:mod:`newscrawl.addon`) installs these with the ``addon`` priority, so a project's
``settings.py``, ``custom_settings`` and ``-s`` options still win. Components read them through
``crawler.settings`` and fall back to these values when the add-on is not used.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

DEFAULTS: dict[str, Any] = {
    # --- spider: scope, discovery, limits (newscrawl.spiders.news) -------------------------------
    # Follow links to other subdomains of a start URL's registrable domain (news.x.com -> www.x.com).
    "NEWSCRAWL_ALLOW_SUBDOMAINS": True,
    # Extra registrable domains (or hosts) to treat as on-site.
    "NEWSCRAWL_ALLOWED_DOMAINS": [],
    # Look for sitemaps (robots.txt Sitemap lines, /sitemap.xml) and RSS/Atom feeds of start pages.
    "NEWSCRAWL_DISCOVER_SITEMAPS": True,
    "NEWSCRAWL_DISCOVER_FEEDS": True,
    # Page requests of a domain queued at most (0 = no limit). Once reached, the domain's further
    # links, sitemap entries and sub-sitemaps are skipped (newscrawl/skipped/domain_page_limit), so a
    # sitemap index of millions of URLs does not fill the queue. Counted as the scheduler accepts
    # requests: it can run over by what Scrapy buffers between a callback and the scheduler
    # (2 x CONCURRENT_ITEMS).
    "NEWSCRAWL_MAX_PAGES_PER_DOMAIN": 20000,
    # URLs longer than this are not followed (link traps, tracking junk).
    "NEWSCRAWL_MAX_URL_LENGTH": 2000,
    # Pagination beyond this page number is not followed (endless pagination traps).
    "NEWSCRAWL_MAX_PAGINATION": 50,
    # A path segment repeated this many times marks a relative-link trap (/a/b/a/b/a/b/).
    "NEWSCRAWL_MAX_REPEATED_SEGMENTS": 3,
    # Outlinks read per page (bounded work on link farms).
    "NEWSCRAWL_MAX_LINKS_PER_PAGE": 2000,
    # Query parameters removed from every URL (exact names or prefixes ending in *).
    "NEWSCRAWL_STRIP_PARAMS": [
        "utm_*",
        "fbclid",
        "gclid",
        "dclid",
        "msclkid",
        "mc_cid",
        "mc_eid",
        "igshid",
        "yclid",
        "_ga",
        "_gl",
        "ref_src",
        "cmpid",
        "ocid",
        "sessionid",
        "session_id",
        "sid",
        "phpsessid",
        "jsessionid",
        "aspsessionid*",
        "cfid",
        "cftoken",
        "s_kwcid",
        "wt.mc_id",
        "share",
        "amp",
        "replytocom",
        "output",
    ],
    # Extra reserved words for the link-target features (added to newscrawl.links.features).
    "NEWSCRAWL_RESERVED_WORDS": [],
    # Pages whose URL article probability reaches this go to the extraction pipelines, unless the
    # page declares its type in structured data (JSON-LD/microdata Article type or articleBody:
    # handed on; only WebPage-like types: not; else og:type=article: handed on), which decides.
    "NEWSCRAWL_ARTICLE_THRESHOLD": 0.5,
    # "all" (default): every HTML page goes to the pipelines, where the page model and the site's
    # layouts decide (docs/articles.md); "articles": only article candidates (the URL probability or
    # the declared type above decides alone which pages are never classified; cheaper, less recall).
    "NEWSCRAWL_HAND_OFF": "all",
    # Path of a URL model to use instead of the shipped models/url_classifier.json.
    "NEWSCRAWL_URL_MODEL": None,
    # --- pipelines (newscrawl.pipelines) ------------------------------------------------------
    # Run title/date/body extraction on handed-off pages.
    "NEWSCRAWL_EXTRACTION_ENABLED": True,
    # Seconds a page's extraction may take before it is stopped and the item exported with the error
    # (counted in newscrawl/extraction/timeouts); 0 turns the limit off. Guard only: the core's input
    # limits keep pages to a few seconds at most. Applies where the pipeline runs in the main thread.
    "NEWSCRAWL_EXTRACTION_TIMEOUT": 120.0,
    # --- extraction workers (newscrawl.extract_pool; docs/workers.md) -------------------------------
    # Worker processes that extract pages while the reactor keeps downloading. None: the machine's
    # cores minus one (at least 1); 0: extract in the crawl's own process, as a plain Scrapy pipeline.
    # With workers, NEWSCRAWL_EXTRACTION_TIMEOUT is a hard limit: a worker past it is killed and replaced.
    "NEWSCRAWL_EXTRACTION_WORKERS": None,
    # Pages a worker extracts before it is replaced by a fresh one (bounds what its memos hold).
    "NEWSCRAWL_EXTRACTION_WORKER_PAGES": 1000,
    # Pages waiting for a busy worker, per worker. Enough that a worker never waits while the crawl's
    # thread, busy with downloads and links, has yet to take its results and free their places (2
    # left the worker idle a third of the time). Further items wait in the pipeline, holding their
    # responses in Scrapy's scraper, whose size limit (SCRAPER_SLOT_MAX_ACTIVE_SIZE) then stops downloads.
    "NEWSCRAWL_EXTRACTION_QUEUE": 16,
    # Attributes kept per tag and tags per page before any HTML parser sees a page (newscrawl.htmlguard:
    # lxml's parse is quadratic in one element's attributes: 100,000 take minutes). 0 = no cap.
    "NEWSCRAWL_MAX_ATTRIBUTES_PER_TAG": 1000,
    "NEWSCRAWL_MAX_TAGS_PER_PAGE": 2000000,
    # Export every handed-off page, with is_article saying which are articles (default: articles only).
    "NEWSCRAWL_EXPORT_ALL": False,
    # Keep the raw HTML in exported items (it is dropped after extraction by default).
    "NEWSCRAWL_KEEP_HTML": False,
    # --- stylesheets (newscrawl.css.middleware, newscrawl.css.store) -------------------------------
    # Fetch each HTML page's linked stylesheets (once per crawl) for the style-based features.
    "NEWSCRAWL_CSS_ENABLED": True,
    # Stylesheets (links and @imports) fetched for one page; the rest are left out.
    "NEWSCRAWL_CSS_MAX_PER_PAGE": 32,
    # A stylesheet larger than this (bytes) is not used (its download is cancelled).
    "NEWSCRAWL_CSS_MAX_BYTES": 2 * 1024 * 1024,
    # Parsed stylesheets kept for the crawl, bounded by their summed size (LRU beyond it).
    "NEWSCRAWL_CSS_CACHE_BYTES": 64 * 1024 * 1024,
    # Longest a page waits for its stylesheets, in seconds (in total); later ones are left out.
    "NEWSCRAWL_CSS_TIMEOUT": 10.0,
    # @import nesting followed (1 = a linked sheet's imports, not theirs).
    "NEWSCRAWL_CSS_IMPORT_DEPTH": 4,
    # Fetch stylesheets hosted on other registrable domains (CDNs, font services). The LOCAL
    # profile (sites on 127.0.0.1) turns this off so tests and benchmarks never leave the machine.
    "NEWSCRAWL_CSS_OFFSITE": True,
    # Downloaded stylesheet sources are also kept outside the process, so a resumed or later crawl
    # (and, when distributed, every other worker through Redis) reuses them instead of fetching
    # again: this directory (default JOBDIR/newscrawl-css when JOBDIR is set, else memory only),
    # and the age in seconds after which a kept source is fetched again.
    "NEWSCRAWL_CSS_SOURCE_DIR": None,
    "NEWSCRAWL_CSS_SOURCE_EXPIRY": 24 * 3600,
    # --- scale and resilience (newscrawl.distributed, newscrawl.journal, newscrawl.progress) ----
    # Share one frontier in Redis (scrapy-redis scheduler + dupefilter on REDIS_URL) between workers.
    "NEWSCRAWL_DISTRIBUTED": False,
    # Prefix of every Redis key of the crawl (use one per crawl to run several on one server).
    "NEWSCRAWL_REDIS_PREFIX": "newscrawl",
    # Distributed workers also take start URLs from the Redis list <prefix>:<spider>:start_urls.
    "NEWSCRAWL_REDIS_START_URLS": True,
    # A distributed worker with no work (empty shared frontier, no start URLs) for this long exits.
    "NEWSCRAWL_IDLE_CLOSE_SECONDS": 30.0,
    # >0: dupefilter is a fixed-size Redis Bloom filter for this many URLs instead of a set.
    "NEWSCRAWL_DUPEFILTER_BLOOM_CAPACITY": 0,
    # False-positive rate of that Bloom filter at capacity (about capacity * rate pages skipped).
    "NEWSCRAWL_DUPEFILTER_BLOOM_ERROR": 1e-6,
    # Distributed: note in Redis what each worker has taken and not finished; the requests of a
    # worker that died (SIGKILL, lost machine) go back to the shared frontier.
    "NEWSCRAWL_WORKER_RECOVERY": True,
    # Seconds without a heartbeat after which a distributed worker counts as dead (its heartbeat
    # is refreshed every few seconds while its reactor runs; a stall this long may duplicate pages).
    "NEWSCRAWL_WORKER_TIMEOUT": 60.0,
    # With JOBDIR: journal the frontier and exports so a crash (SIGKILL) loses no page.
    "NEWSCRAWL_JOURNAL_ENABLED": True,
    # Seconds between progress lines (LogStats convention); 0 turns them off.
    "NEWSCRAWL_PROGRESS_INTERVAL": 60.0,
    # --- watch: incremental crawling for monitoring (newscrawl.watch, docs/watch.md) -------------
    # Directory of the watch state (SQLite, WAL). Set, it makes every crawl a watch cycle: the first
    # crawls as usual, later ones re-read only fronts (feeds, sitemaps, home and section pages) with
    # conditional requests and export only articles never exported (or changed: updated=true).
    "NEWSCRAWL_WATCH_STATE": None,
    # "auto" (Redis when NEWSCRAWL_DISTRIBUTED, else SQLite), "sqlite" or "redis" (REDIS_URL,
    # keys <NEWSCRAWL_REDIS_PREFIX>:watch:*).
    "NEWSCRAWL_WATCH_BACKEND": "auto",
    # Pages and articles no front has listed for this many days are forgotten (bounded state).
    "NEWSCRAWL_WATCH_FORGET_DAYS": 30.0,
    # Revisit interval bounds per front, seconds: halved when a visit finds new articles, x1.5
    # when not (newscrawl watch --every sets both).
    "NEWSCRAWL_WATCH_MIN_INTERVAL": 900.0,
    "NEWSCRAWL_WATCH_MAX_INTERVAL": 7200.0,
    # First cycle only: follow just the feed and sitemap entries dated on or after this date
    # (ISO 8601); everything else listed is remembered as seen, never fetched.
    "NEWSCRAWL_WATCH_SINCE": None,
    # Section fronts kept per site (pages linked from a start page, ranked by the likely articles
    # they link), and the likely article links a page needs to be one.
    "NEWSCRAWL_WATCH_MAX_FRONTS": 10,
    "NEWSCRAWL_WATCH_FRONT_MIN_ARTICLES": 3,
    # --- PostgreSQL sink (newscrawl.postgres; the postgres extra) ----------------------------------
    # libpq connection string or URI; set, articles are upserted by canonical URL (None: off).
    "NEWSCRAWL_POSTGRES_DSN": None,
    # Table (created when missing; "schema.table" allowed).
    "NEWSCRAWL_POSTGRES_TABLE": "newscrawl_articles",
    # Connection errors: retries, and the first back-off in seconds (doubling, at most 30 s); the
    # defaults ride out about 2.5 minutes of a server down before an item fails loudly.
    "NEWSCRAWL_POSTGRES_RETRY_TIMES": 10,
    "NEWSCRAWL_POSTGRES_BACKOFF": 0.5,
    # --- site templates (newscrawl.template; values measured in docs/decisions.md) ---------------
    # Learn each site's template (n-CS + exact top-down mapping) and strip it from article bodies.
    "NEWSCRAWL_TEMPLATE_ENABLED": True,
    # Size n of the complete subdigraph of menu-linked pages, and votes t a node needs (seed 003;
    # t = n: a template node is on every CS page, measured better than the seed's 2 of 3).
    "NEWSCRAWL_TEMPLATE_N": 3,
    "NEWSCRAWL_TEMPLATE_T": 3,
    # Equality probability: weights, probabilities when both nodes lack classes/attributes/children,
    # mapping threshold, order-preserving mapping (activatePosition), and the factor applied when
    # the two nodes' own texts differ (1.0 = ignore text, as the seed; 0.0 = text must agree).
    "NEWSCRAWL_TEMPLATE_WEIGHTS": {"classes": 0.5, "position": 0.2, "attributes": 0.2, "children": 0.1},
    "NEWSCRAWL_TEMPLATE_NOT_PROBABILITIES": {"classes": 0.9, "attributes": 0.75, "children": 1.0},
    "NEWSCRAWL_TEMPLATE_THRESHOLD": 0.8,
    "NEWSCRAWL_TEMPLATE_ORDERED": True,
    "NEWSCRAWL_TEMPLATE_TEXT_MISMATCH": 0.0,
    # A CS page missing more than this share of the nodes the other CS pages map is atypical.
    "NEWSCRAWL_TEMPLATE_ATYPICAL": 0.5,
    # Where the template leaves the body: "after" extraction (drop the body's trailing lines that
    # are a template element's text), "before" (drop template subtrees, extract again) or "both".
    "NEWSCRAWL_TEMPLATE_MODE": "after",
    # Pages loaded at most by one n-CS search (from the crawl's recent pages or downloaded).
    "NEWSCRAWL_TEMPLATE_MAX_FETCH": 15,
    # Recent pages (compressed HTML + links) kept per domain, for the 8 most recent domains: the
    # n-CS search reads these before downloading anything (section templates too). A crawl
    # fetches faster than items reach the pipeline: with 20, a demo crawl's CS pages were gone.
    "NEWSCRAWL_TEMPLATE_MAX_PAGES": 100,
    # Key pages tried per domain (or section) before giving up on its template.
    "NEWSCRAWL_TEMPLATE_MAX_ATTEMPTS": 3,
    # A page matching less than this share of its domain's template gets a section template.
    "NEWSCRAWL_TEMPLATE_MIN_COVERAGE": 0.5,
    # Templates kept in memory; directory of the JSON template cache (default: JOBDIR/newscrawl-
    # templates when JOBDIR is set, else memory only); age in seconds after which one is relearned.
    "NEWSCRAWL_TEMPLATE_CACHE_SIZE": 512,
    "NEWSCRAWL_TEMPLATE_CACHE_DIR": None,
    "NEWSCRAWL_TEMPLATE_EXPIRY": 7 * 24 * 3600,
    # --- body extractor and page classifier (newscrawl.classify) -----------------------------------
    # Body extractor: "nce" (default pipeline), "mss", "coreex", "newsfeed" or "wang" (needs the
    # optional browser extra, see docs); read by the extraction pipeline, same as extract --method.
    "NEWSCRAWL_BODY_EXTRACTOR": "nce",
    # Page classifier: "default" (a first pass on the features that cost little, models/page_classifier_fast.json,
    # decides alone where it is sure; other pages go to "words"; a page extracted without a URL gets the URL-less
    # model after a first pass of its own, models/page_classifier_nourl_fast.json), "words" (the boosted trees
    # also read two hashed word n-gram text models, F1 0.951 vs 0.934 on wcxb-dev; they know mostly English
    # words, so pages whose text is not English get the plain model's verdict, and on dated pages they lower its
    # probability only part of the way; docs/decisions.md, page classifier rounds 7 and 8 for the first passes),
    # "plain" (reads no words: slightly more English news articles of sites unlike wcxb-dev's kept, 0.934 on
    # wcxb-dev; docs/decisions.md, page classifier round 6) or a model path.
    "NEWSCRAWL_PAGE_MODEL": "default",
    # --- WARC archive of the crawl (newscrawl.warc.middleware; docs/warc.md) -----------------------
    # Directory to write WARC/1.1 files into (request + response records of every fetched response,
    # bodies as received); None: no WARC. Needs the warc extra (warcio).
    "NEWSCRAWL_WARC_DIR": None,
    # A file is closed and the next one opened before it would grow past this many bytes.
    "NEWSCRAWL_WARC_MAX_BYTES": 10**9,
    # File names: <prefix>-<timestamp17>-<serial>-<pid>~<host>.warc.gz (Heritrix's pattern).
    "NEWSCRAWL_WARC_PREFIX": "newscrawl",
    # Free text for the warcinfo record's "description" field (None: left out).
    "NEWSCRAWL_WARC_DESCRIPTION": None,
    # --- site-level article detection (newscrawl.site_pipeline, newscrawl.classify.site) ----------
    # Decide is_article with what the crawl knows about the site: pages sharing the layout of the
    # site's sure articles are articles even when short, pages of its listing layout are not
    # (docs/articles.md). Off: the page classifier decides each page alone.
    "NEWSCRAWL_SITE_ARTICLES": True,
    # Sure articles (page model >= 0.8) a site needs before its layouts decide; its earlier items wait.
    "NEWSCRAWL_SITE_MIN_ARTICLES": 20,
    # Items that may wait for their site's evidence at once; the oldest is decided when one more comes
    # (all are decided when the crawl has nothing else to do, or closes).
    "NEWSCRAWL_SITE_BUFFER": 100,
}


# the values a string setting must take (the reader compares with them: a typo would silently
# mean the default)
# --- Scrapy's own settings that the add-on changes (the same ``addon`` priority: a project's value wins)
SCRAPY_DEFAULTS: dict[str, Any] = {
    # Items and requests of one response processed in parallel (Scrapy's default: 100). Scrapy starts
    # this many tasks for every response, whatever it yields; a news page yields one item and a few
    # new links, and 100 tasks cost the crawl's main process about a millisecond a page
    # (benchmarks/crawl.py). Pages are still processed in parallel with each other.
    "CONCURRENT_ITEMS": 16,
    # Bytes of responses in processing before Scrapy stops downloading (Scrapy's default: 5 MB).
    # A response counts until its item leaves the last pipeline, so the pages waiting for an
    # extraction worker and those the site-level article stage holds all count: 5 MB is 16 news
    # pages of 300 KB, fewer than one worker's queue, and the crawl downloaded in bursts
    # (wyofile, 1 worker: 14.8 s at 5 MB, 10-11.5 s at 20-200 MB; docs/decisions/workers.md).
    "SCRAPER_SLOTS_MAX_ACTIVE_SIZE": 50_000_000,
}

CHOICES: dict[str, tuple[str, ...]] = {
    "NEWSCRAWL_HAND_OFF": ("articles", "all"),
    "NEWSCRAWL_TEMPLATE_MODE": ("after", "before", "both"),
    "NEWSCRAWL_WATCH_BACKEND": ("auto", "sqlite", "redis"),
}


def setting_errors(settings: Any) -> list[str]:
    """What is wrong with the ``NEWSCRAWL_*`` values of ``settings`` (a Scrapy Settings): a value
    its reader cannot convert to its default's type (``-s NEWSCRAWL_ARTICLE_THRESHOLD=abc``), or a
    string outside :data:`CHOICES`. The add-on refuses to start a crawl with any: before, a bad
    number stopped the spider halfway through its set-up with an unrelated error."""
    errors = []
    for name, default in DEFAULTS.items():
        value = settings.get(name)
        if value is None or value == default:
            continue
        kind = next((k for k in (bool, int, float) if isinstance(default, k)), None)
        if kind is not None:
            read, expected = {
                bool: (settings.getbool, "a boolean"),
                int: (settings.getint, "an integer"),
                float: (settings.getfloat, "a number"),
            }[kind]
            try:
                read(name)
            except (TypeError, ValueError):
                errors.append(f"{name} = {value!r}: not {expected}")
        if name in CHOICES and value not in CHOICES[name]:
            errors.append(f"{name} = {value!r}: one of {', '.join(map(repr, CHOICES[name]))}")
    return errors


def feed_errors(settings: Any) -> list[str]:
    """Local feed files of ``FEEDS`` (``-o``/``-O``) that cannot be written. Scrapy opens a feed at
    its first item; when that fails it logs an error per item and the crawl runs to its end
    exporting nothing, with exit status 0. A missing folder is created here, as the exporter would;
    URIs with placeholders (``%(time)s``) or a remote scheme are left to Scrapy."""
    errors = []
    for uri in settings.getdict("FEEDS") or {}:
        text = str(uri)
        if "%(" in text or ("://" in text and not text.startswith("file://")):
            continue
        path = Path(text.removeprefix("file://"))
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            errors.append(f"cannot write {path}: {exc.strerror or exc}")
            continue
        if path.is_dir():
            errors.append(f"cannot write {path}: a directory")
        elif not os.access(path if path.exists() else path.parent, os.W_OK):
            errors.append(f"cannot write {path}: permission denied")
    return errors
