"""Stylesheets without a browser: parse once, keep what matters, cascade on demand.

Public API (see docs/css.md):

- :func:`parse_stylesheet` -> :class:`Stylesheet` (immutable, shareable across pages);
  :func:`parse_style_block` for ``<style>`` texts (cached: blocks repeat on every page)
- :class:`StyleResolver` (one document) -> ``style(element)`` -> :class:`ComputedStyle`
- :func:`newscrawl.css.store.stylesheet_store` (the crawl-wide store the middleware fills)
- :class:`newscrawl.css.middleware.StylesheetMiddleware` (Scrapy; fetches linked CSS)
"""

from newscrawl.css.cascade import ComputedStyle, StyleResolver, parse_style_block
from newscrawl.css.media import DEFAULT_VIEWPORT, media_matches
from newscrawl.css.stylesheet import Import, Rule, Stylesheet, parse_stylesheet

__all__ = [
    "DEFAULT_VIEWPORT",
    "ComputedStyle",
    "Import",
    "Rule",
    "StyleResolver",
    "Stylesheet",
    "media_matches",
    "parse_style_block",
    "parse_stylesheet",
]
