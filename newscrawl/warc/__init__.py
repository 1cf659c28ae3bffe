"""WARC (ISO 28500) in both directions.

* Out: ``NEWSCRAWL_WARC_DIR`` makes a crawl write WARC/1.1 files (:mod:`newscrawl.warc.writer`,
  the Scrapy adapters in :mod:`newscrawl.warc.middleware`).
* In: ``newscrawl extract --warc FILE...`` and :func:`iter_articles` extract the HTML pages of
  WARC and ARC files (:mod:`newscrawl.warc.reader`, :mod:`newscrawl.warc.articles`), on Dask with
  ``--dask`` (:mod:`newscrawl.warc.dask`).

Both need the ``warc`` extra (warcio); see docs/warc.md.
"""

from __future__ import annotations

from typing import Any

__all__ = ["iter_articles", "iter_responses"]


def __getattr__(name: str) -> Any:
    """Lazy exports: importing the package costs nothing until a WARC is read."""
    if name == "iter_articles":
        from newscrawl.warc.articles import iter_articles

        return iter_articles
    if name == "iter_responses":
        from newscrawl.warc.reader import iter_responses

        return iter_responses
    raise AttributeError(f"module 'newscrawl.warc' has no attribute {name!r}")
