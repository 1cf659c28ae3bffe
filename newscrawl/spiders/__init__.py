"""Scrapy spiders shipped with newscrawl (``news``)."""
