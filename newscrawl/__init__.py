"""newscrawl: find the articles of a news site, extract title, date and body, learn its template.

The core (``newscrawl.extract`` and friends) is plain Python; the Scrapy spider, middleware,
pipelines and add-on are thin adapters over it.
"""

from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["__version__", "extract", "Article", "detect_template", "Template"]


def __getattr__(name: str):
    """Lazy ``newscrawl.extract`` (a callable module: ``newscrawl.extract(html, url)``) and
    ``newscrawl.Article``, so importing the package stays cheap."""
    if name in ("extract", "Article"):
        import importlib

        module = importlib.import_module("newscrawl.extract")
        return module if name == "extract" else module.Article
    if name in ("detect_template", "Template"):
        import importlib

        return getattr(importlib.import_module("newscrawl.template"), name)
    raise AttributeError(f"module 'newscrawl' has no attribute {name!r}")
