"""Incremental crawling for media monitoring: ``newscrawl watch`` and ``NEWSCRAWL_WATCH_STATE``.

Core (plain Python): :mod:`~newscrawl.watch.state` (SQLite store; Redis in ``redis_state``),
:mod:`~newscrawl.watch.fingerprint` (content revisions), :mod:`~newscrawl.watch.schedule`
(adaptive revisit intervals), :mod:`~newscrawl.watch.entries` (sitemap/feed dates) and
:mod:`~newscrawl.watch.cycle` (what one cycle fetches, exports and records, in a crash-safe order).
Scrapy adapters: :mod:`~newscrawl.watch.crawl`. User documentation: ``docs/watch.md``.
"""
