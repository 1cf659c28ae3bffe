"""Generated demo news sites and the local server that serves them (tests, benchmarks, demo).

See ``newscrawl.demo.site`` (the sites and their ground truth) and ``newscrawl.demo.server``.
The server names are imported lazily so ``python -m newscrawl.demo.server`` runs without
runpy's "found in sys.modules" warning.
"""

from __future__ import annotations

from typing import Any

from newscrawl.demo.base import DEFAULT_BASE, Site
from newscrawl.demo.model import ArticleTruth, PageTruth
from newscrawl.demo.site import DemoSite, build_demo_site, build_large_site

_SERVER_NAMES = ("Served", "serve_directory", "serve_site")
__all__ = [
    "DEFAULT_BASE",
    "ArticleTruth",
    "DemoSite",
    "PageTruth",
    "Site",
    "build_demo_site",
    "build_large_site",
    *_SERVER_NAMES,
]


def __getattr__(name: str) -> Any:
    if name in _SERVER_NAMES:
        from newscrawl.demo import server

        return getattr(server, name)
    raise AttributeError(f"module 'newscrawl.demo' has no attribute {name!r}")
