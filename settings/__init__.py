"""Scrapy settings of this repository's own project (``scrapy.cfg`` points here).

Polite defaults for crawling real news sites. Tests and the demo override the throttling for
127.0.0.1. Everything newscrawl-specific is installed by the add-on; see newscrawl/defaults.py.
"""

BOT_NAME = "newscrawl"
SPIDER_MODULES = ["newscrawl.spiders"]
NEWSPIDER_MODULE = "newscrawl.spiders"

ADDONS = {"newscrawl.addon.NewscrawlAddon": 0}

USER_AGENT = "newscrawl/0.1 (+https://github.com/newscrawl/newscrawl; news article crawler)"
ROBOTSTXT_OBEY = True

# Politeness: at most 2 parallel requests per site, adaptive delay from AutoThrottle.
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 2
DOWNLOAD_DELAY = 0.5
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 30.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 2.0

# Bounded work per response.
DOWNLOAD_TIMEOUT = 30
DOWNLOAD_MAXSIZE = 16 * 1024 * 1024
DOWNLOAD_WARNSIZE = 4 * 1024 * 1024
REDIRECT_MAX_TIMES = 10
DEPTH_LIMIT = 12
RETRY_TIMES = 2

FEED_EXPORT_ENCODING = "utf-8"
LOG_LEVEL = "INFO"
