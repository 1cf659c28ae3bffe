"""Generated demo news sites and the local server that serves them (tests, benchmarks, demo).

See ``newscrawl.demo.site`` (the sites and their ground truth) and ``newscrawl.demo.server``.
"""

from __future__ import annotations

from newscrawl.demo.base import DEFAULT_BASE, Site
from newscrawl.demo.model import ArticleTruth, PageTruth
from newscrawl.demo.server import Served, serve_directory, serve_site
from newscrawl.demo.site import DemoSite, build_demo_site, build_large_site

__all__ = ["DEFAULT_BASE", "ArticleTruth", "DemoSite", "PageTruth", "Served", "Site",
           "build_demo_site", "build_large_site", "serve_directory", "serve_site"]
