"""newscrawl: find the articles of a news site, extract title, date and body, learn its template.

The core (``newscrawl.extract`` and friends) is plain Python; the Scrapy spider, middleware,
pipelines and add-on are thin adapters over it.
"""

from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["__version__"]
