"""Scrapy settings of this repository's own project (``scrapy.cfg`` points here).

The polite defaults for real news sites (robots.txt obeyed, AutoThrottle, 2 requests at a time
per site, a user agent naming newscrawl, timeouts and size limits) are in
``newscrawl/profiles.py`` (``POLITE``); every ``NEWSCRAWL_*`` setting and its default is in
``newscrawl/defaults.py``, installed by the add-on. Override anything here or with ``-s``.
"""

from newscrawl.profiles import POLITE

globals().update(POLITE)

SPIDER_MODULES = ["newscrawl.spiders"]
NEWSPIDER_MODULE = "newscrawl.spiders"
ADDONS = {"newscrawl.addon.NewscrawlAddon": 0}
