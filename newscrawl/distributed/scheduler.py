"""scrapy-redis's scheduler, adapted to Scrapy 2.14+ (the smallest change that works).

scrapy-redis 0.9.1 passes ``spider=`` to ``StatsCollector.inc_value()`` and calls
``Spider.log()``; Scrapy 2.14+ deprecates both (and this project's tests turn Scrapy deprecation
warnings into errors). Only those calls are replaced; queueing, the dupefilter and persistence
are scrapy-redis's own. The dupefilter, queues and connection work unchanged on Scrapy 2.19
(``tests/scale/test_distributed.py``).
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy.utils.misc import load_object
from scrapy_redis.scheduler import Scheduler as RedisScheduler

logger = logging.getLogger(__name__)


class Scheduler(RedisScheduler):
    def open(self, spider: Any) -> None:
        # upstream's open(), logging through this module instead of the deprecated Spider.log()
        self.spider = spider
        self.queue = load_object(self.queue_cls)(server=self.server, spider=spider,
                                                 key=self.queue_key % {"spider": spider.name},
                                                 serializer=self.serializer)
        if not self.df:
            self.df = load_object(self.dupefilter_cls).from_spider(spider)
        if self.flush_on_start:
            self.flush()
        if len(self.queue):
            logger.info("Joining a crawl in progress: %d requests in the shared frontier", len(self.queue))

    def enqueue_request(self, request: Any) -> bool:
        if not request.dont_filter and self.df.request_seen(request):
            self.df.log(request, self.spider)
            return False
        if self.stats:
            self.stats.inc_value("scheduler/enqueued/redis")
        self.queue.push(request)
        return True

    def next_request(self) -> Any:
        request = self.queue.pop(self.idle_before_close)
        if request and self.stats:
            self.stats.inc_value("scheduler/dequeued/redis")
        return request
