"""The one item newscrawl produces: :class:`NewsArticle`, documented field by field.

Feed exports write fields in declaration order (Scrapy 2.18+), so the order below is the column
order of CSV exports. Fields a stage could not fill are left out of the item rather than set to
empty values, except ``body`` which is ``None`` when a page has no convincing content.
"""

from __future__ import annotations

import scrapy


class NewsArticle(scrapy.Item):
    # --- where the page is -------------------------------------------------------------------
    url = scrapy.Field()  # URL fetched (after redirects), canonicalised
    canonical_url = scrapy.Field()  # <link rel=canonical> or og:url when on-site, else url
    domain = scrapy.Field()  # registrable domain (tldextract, bundled suffix list)
    # --- what was extracted (ExtractionPipeline) -----------------------------------------------
    title = scrapy.Field()  # headline, plain text
    published = scrapy.Field()  # publication date, ISO 8601 (date or datetime)
    modified = scrapy.Field()  # last-modified date, ISO 8601, where the page states one
    authors = scrapy.Field()  # list of author names, where the page states them
    body = scrapy.Field()  # main text, one paragraph per line (a listing's: its links); None if none
    language = scrapy.Field()  # BCP 47 language tag from <html lang> / metadata, if stated
    is_article = scrapy.Field()  # verdict (bool): page classifier, or the site's layouts (extraction["is_article"])
    probability = scrapy.Field()  # probability of "article" (0..1) of that verdict
    extraction = scrapy.Field()  # provenance: per field {"method": ..., "score": ...}, template id
    # --- how it was fetched (spider) ---------------------------------------------------------
    fetched_at = scrapy.Field()  # fetch time, ISO 8601 UTC
    status = scrapy.Field()  # HTTP status of the final response
    depth = scrapy.Field()  # link depth from the start pages (0 = start page)
    url_probability = scrapy.Field()  # URL classifier's article probability of `url` (0..1)
    discovered_by = scrapy.Field()  # "start", "link", "sitemap" or "feed"
    outlinks = scrapy.Field()  # on-site links of the page, canonicalised, in document order
    stylesheets = scrapy.Field()  # stylesheet URLs in cascade order (CSS middleware); parsed in the crawl's cache
    warc = scrapy.Field()  # with NEWSCRAWL_WARC_DIR: the response record {file, offset, record_id, date}
    # --- watch (incremental crawling, newscrawl.watch; only when NEWSCRAWL_WATCH_STATE is set) ------
    first_seen = scrapy.Field()  # when the watch first exported this article (canonical URL), ISO 8601 UTC
    last_changed = scrapy.Field()  # when its title, date or body last changed (= first_seen until then)
    updated = scrapy.Field()  # True: exported before, now with a changed title, date or body
    revision = scrapy.Field()  # 1 for the first export, +1 for each update
    # --- raw material, removed after extraction unless NEWSCRAWL_KEEP_HTML ----------------------
    html = scrapy.Field()  # HTML of the page, decoded as browsers do (newscrawl.encoding)
    site_layout = scrapy.Field()  # the page's layout (newscrawl.classify.site), read and removed by SiteArticlePipeline
