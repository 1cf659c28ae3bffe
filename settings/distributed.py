"""Settings for distributed workers: ``SCRAPY_SETTINGS_MODULE=settings.distributed scrapy crawl news``.

The repository's polite settings plus ``NEWSCRAWL_DISTRIBUTED``, which makes the add-on switch the
scheduler and dupefilter to scrapy-redis (see ``newscrawl/distributed/__init__.py``). The Redis
server comes from the ``REDIS_URL`` environment variable (default ``redis://127.0.0.1:6379/0``);
every worker, on any machine, must use the same one.
"""

import os

from settings import *  # noqa: F403 (the project settings, extended here)

NEWSCRAWL_DISTRIBUTED = True
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
# A worker with nothing to do for this long (shared frontier empty, no start URLs in Redis) exits.
NEWSCRAWL_IDLE_CLOSE_SECONDS = float(os.environ.get("NEWSCRAWL_IDLE_CLOSE_SECONDS", "60"))
