"""The Scrapy add-on: ``ADDONS = {"newscrawl.addon.NewscrawlAddon": 0}`` in any Scrapy project.

It makes ``scrapy crawl news`` available (adds ``newscrawl.spiders`` to ``SPIDER_MODULES``),
installs newscrawl's downloader middleware and item pipelines at their documented priorities
unless the project already placed them, and installs the ``NEWSCRAWL_*`` defaults with the
``addon`` priority so project settings win.
"""

from __future__ import annotations

from scrapy.settings import BaseSettings, Settings

from newscrawl.defaults import DEFAULTS, SCRAPY_DEFAULTS, feed_errors, setting_errors
from newscrawl.extras import extra_errors

# (import path, priority) of each component the add-on enables; modules that are not built in
# this checkout are skipped, so the add-on never names a component that cannot load.
DOWNLOADER_MIDDLEWARES: dict[str, int] = {
    # below HttpCompressionMiddleware (590): it must read pages after their content coding is removed
    "newscrawl.css.middleware.StylesheetMiddleware": 585,
    # between them: after HttpCompressionMiddleware has decompressed the body, before anything parses it
    "newscrawl.htmlguard_middleware.HtmlGuardMiddleware": 588,
}
ITEM_PIPELINES: dict[str, int] = {
    "newscrawl.pipelines.ExtractionPipeline": 300,
    "newscrawl.pipelines.TemplatePipeline": 350,
    "newscrawl.site_pipeline.SiteArticlePipeline": 400,
    "newscrawl.pipelines.ArticleFilterPipeline": 800,
    "newscrawl.pipelines.DropRawHtmlPipeline": 900,
    "newscrawl.pipelines.PostgresPipeline": 950,
}


def _available(path: str) -> bool:
    from importlib import import_module

    module_name, _, attr = path.rpartition(".")
    try:
        return hasattr(import_module(module_name), attr)
    except ImportError:
        return False


def _setdefault(settings: BaseSettings, name: str, path: str, priority: int | None) -> None:
    """A component by import path (Scrapy's hints name a class; the method takes either)."""
    settings.setdefault_in_component_priority_dict(name, path, priority)  # type: ignore[arg-type]


class NewscrawlAddon:
    @classmethod
    def update_pre_crawler_settings(cls, settings: BaseSettings) -> None:
        settings.add_to_list("SPIDER_MODULES", "newscrawl.spiders")

    def update_settings(self, settings: Settings) -> None:
        # update_pre_crawler_settings is not called when ADDONS comes from a spider; repeat it.
        settings.add_to_list("SPIDER_MODULES", "newscrawl.spiders")
        for name, value in {**DEFAULTS, **SCRAPY_DEFAULTS}.items():
            settings.set(name, value, priority="addon")
        for path, priority in DOWNLOADER_MIDDLEWARES.items():
            if _available(path):
                _setdefault(settings, "DOWNLOADER_MIDDLEWARES", path, priority)
        for path, priority in ITEM_PIPELINES.items():
            if _available(path):
                _setdefault(settings, "ITEM_PIPELINES", path, priority)
        # Scrapy's meta-refresh middleware loses a page whose <base href> is malformed: ours, in its
        # place and at its priority, unless the project set that middleware itself
        from newscrawl.responses import SCRAPY_META_REFRESH

        if SCRAPY_META_REFRESH not in settings.getdict("DOWNLOADER_MIDDLEWARES"):
            at = settings.getdict("DOWNLOADER_MIDDLEWARES_BASE").get(SCRAPY_META_REFRESH)
            _setdefault(settings, "DOWNLOADER_MIDDLEWARES", SCRAPY_META_REFRESH, None)
            _setdefault(settings, "DOWNLOADER_MIDDLEWARES", "newscrawl.responses.MetaRefreshMiddleware", at)
        errors = setting_errors(settings) + feed_errors(settings) + extra_errors(settings)
        if errors:  # say what is wrong before any component reads it, or a crawl exports nothing
            raise ValueError("invalid newscrawl settings: " + "; ".join(errors))
        # scale and resilience (issue 7): Redis frontier, crash-safe JOBDIR journal, progress line
        from newscrawl import journal, progress
        from newscrawl.distributed import install as install_distributed

        install_distributed(settings)
        journal.install(settings)
        progress.install(settings)
        from newscrawl.warc.middleware import install as install_warc  # NEWSCRAWL_WARC_DIR (issue 32)

        install_warc(settings)
        from newscrawl.watch.crawl import install as install_watch  # incremental crawling (issue 33)

        install_watch(settings)
