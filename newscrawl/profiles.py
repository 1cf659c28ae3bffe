"""Ready-made Scrapy settings for newscrawl crawls.

``POLITE`` is for real news sites: obeys robots.txt, AutoThrottle on, at most 2 parallel requests
per site, a user agent that names newscrawl, bounded response sizes. This repository's
``settings/`` module and ``newscrawl crawl`` use it. ``LOCAL`` is for sites served on 127.0.0.1
(the demo, tests and benchmarks): no throttling, and no stylesheets from other hosts; robots.txt
is still obeyed.
"""

from __future__ import annotations

from typing import Any

POLITE: dict[str, Any] = {
    "BOT_NAME": "newscrawl",
    "USER_AGENT": "newscrawl/0.1 (+https://github.com/newscrawl/newscrawl; news article crawler)",
    "ROBOTSTXT_OBEY": True,
    "CONCURRENT_REQUESTS": 16,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
    "DOWNLOAD_DELAY": 0.5,
    "AUTOTHROTTLE_ENABLED": True,
    "AUTOTHROTTLE_START_DELAY": 1.0,
    "AUTOTHROTTLE_MAX_DELAY": 30.0,
    "AUTOTHROTTLE_TARGET_CONCURRENCY": 2.0,
    "DOWNLOAD_TIMEOUT": 30,
    "DOWNLOAD_MAXSIZE": 16 * 1024 * 1024,
    "DOWNLOAD_WARNSIZE": 4 * 1024 * 1024,
    "REDIRECT_MAX_TIMES": 10,
    "DEPTH_LIMIT": 12,
    "RETRY_TIMES": 2,
    "FEED_EXPORT_ENCODING": "utf-8",
    "LOG_LEVEL": "INFO",
}

LOCAL: dict[str, Any] = {
    **POLITE,
    "CONCURRENT_REQUESTS": 32,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
    "DOWNLOAD_DELAY": 0,
    "AUTOTHROTTLE_ENABLED": False,
    "DOWNLOAD_TIMEOUT": 20,
    # a saved copy of a real site still links its CDN stylesheets: never leave the machine
    "NEWSCRAWL_CSS_OFFSITE": False,
}
