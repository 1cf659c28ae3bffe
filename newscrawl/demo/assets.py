"""Stylesheets and images of the demo site.

The CSS is deliberately shaped like a real theme so the cascade issue has something to compute:
``main.css`` ``@import``s ``base.css`` (fonts, colours); ``article.css`` is linked only from
article pages; ``print.css`` is linked with ``media="print"`` and must not affect screen styles.
Headings are told apart by class (``.headline``, ``.section-title`` on a ``div``, small red
``.widget-title`` on sidebar ``h2``), relative sizes (em, %), an ``!important``, a media query
and ``display:none`` blocks (``.mobile-menu``, ``.ad-slot``, ``.print-only``) exercise the cascade.
"""

from __future__ import annotations

import struct
import zlib

BASE_CSS = """\
/* base.css: typography and colours shared by every page */
html { font-size: 16px; }
body { font-family: Georgia, "Times New Roman", serif; color: #222222; background: #ffffff;
       margin: 0; line-height: 1.5; }
a { color: #1a4b7a; text-decoration: none; }
a:hover { text-decoration: underline; }
h1, h2, h3 { font-family: "Helvetica Neue", Arial, sans-serif; font-weight: 700; color: #111111; }
h1 { font-size: 2em; }
h2 { font-size: 1.5em; }
h3 { font-size: 1.17em; }
small, .meta { font-size: 0.8125rem; color: #666666; }
strong, b { font-weight: bold; }
"""

MAIN_CSS = """\
@import url("/static/css/base.css");
/* main.css: layout and the shared site template */
.container { display: flex; max-width: 1180px; margin: 0 auto; gap: 32px; padding: 0 16px; }
.site-header { max-width: 1180px; margin: 0 auto; }
.main-menu ul, .mobile-menu ul { display: flex; flex-wrap: wrap; gap: 18px; list-style: none;
                                 margin: 0; padding: 10px 16px; }
figure img { width: 100%; height: auto; background: #cccccc; }
.site-footer ul { list-style: none; padding: 0; }
.footer-col { display: inline-block; vertical-align: top; margin: 16px; }
.content { flex: 3; }
.sidebar { flex: 1; font-size: 0.9375rem; }
.top-bar { font-size: 12px; color: #666666; font-family: Arial, sans-serif; }
.logo { font-family: "Playfair Display", Georgia, serif; font-size: 40px; font-weight: 900;
        color: #111111; }
.tagline { font-size: 13px; font-style: italic; color: #777777; }
.main-menu { background: #1f2a36; }
.main-menu a { font-family: Arial, sans-serif; font-size: 15px; font-weight: bold; color: #ffffff;
               text-transform: uppercase; }
.main-menu .current a { color: #f2c14e; }
.mobile-menu { display: none; }
.skip-link { position: absolute; left: -10000px; }
.breadcrumbs { font-size: 13px; color: #777777; font-family: Arial, sans-serif;
               max-width: 1180px; margin: 12px auto; padding: 0 16px; }
.section-title { font-family: "Helvetica Neue", Arial, sans-serif; font-size: 30px;
                 font-weight: 700; color: #111111; }
.section-intro { font-size: 17px; color: #444444; }
.story-card .card-title { font-size: 20px; font-weight: 700; margin: 0; }
.story-card .card-title.lead { font-size: 32px; }
.story-card .teaser { font-size: 15px; color: #444444; }
.story-card .card-meta { font-size: 12px; color: #888888; font-family: Arial, sans-serif; }
.kicker { font-size: 12px; font-weight: bold; text-transform: uppercase; color: #b00000;
          font-family: Arial, sans-serif; }
.widget-title { font-size: 14px; text-transform: uppercase; letter-spacing: 0.08em;
                color: #b00000; font-family: Arial, sans-serif; }
.most-read li { font-size: 15px; font-weight: bold; }
.newsletter-box { background: #f4efe6; padding: 16px; }
.newsletter-box .box-title { font-size: 18px; font-weight: bold; font-family: Arial, sans-serif; }
.ad-slot { display: none; }
.print-only { display: none; }
.cookie-banner { position: fixed; bottom: 0; font-size: 13px; background: #222222;
                 color: #eeeeee; font-family: Arial, sans-serif; }
.pagination a, .pagination span { font-size: 14px; font-weight: bold; }
.site-footer { font-size: 13px; color: #cccccc; background: #222222; font-family: Arial, sans-serif; }
.site-footer a { color: #dddddd; }
.site-footer .footer-title { font-size: 15px; font-weight: bold; color: #ffffff; }
.copyright { font-size: 11px !important; }
@media (max-width: 600px) {
  .main-menu { display: none; }
  .mobile-menu { display: block; }
  .container { display: block; }
}
"""

ARTICLE_CSS = """\
/* article.css: linked from article pages only */
.headline { font-family: "Helvetica Neue", Arial, sans-serif; font-size: 38px; font-weight: 800;
            color: #111111; line-height: 1.15; }
.standfirst { font-size: 20px; font-style: italic; color: #444444; }
.byline { font-size: 14px; text-transform: uppercase; color: #555555; font-family: Arial, sans-serif; }
.byline a { font-weight: bold; color: #222222; }
.dateline { font-size: 13px; color: #777777; }
.updated { font-size: 12px; color: #999999; }
.article-body { font-size: 18px; line-height: 1.65; }
.article-body p { margin: 0 0 1.1em; }
.inline-related { font-size: 0.8em; border-left: 4px solid #b00000; padding-left: 12px; }
.inline-related .label { font-weight: bold; text-transform: uppercase; }
figure figcaption { font-size: 13px; color: #666666; font-style: italic; }
.tag-list a { font-size: 13px; background: #eeeeee; }
.author-bio { font-size: 14px; color: #555555; }
.comments { font-size: 15px; border-top: 2px solid #dddddd; }
.comments .comments-title { font-size: 22px; font-weight: bold; }
.comment-author { font-weight: bold; font-size: 14px; }
.comment-time { font-size: 12px; color: #888888; }
.share-tools button { font-size: 12px; }
"""

PRINT_CSS = """\
/* print.css: media="print" only */
.main-menu, .sidebar, .cookie-banner, .site-footer, .share-tools, .comments { display: none; }
.print-only { display: block; }
body { font-size: 12pt; color: #000000; }
"""

STYLESHEETS: dict[str, str] = {
    "/static/css/base.css": BASE_CSS,
    "/static/css/main.css": MAIN_CSS,
    "/static/css/article.css": ARTICLE_CSS,
    "/static/css/print.css": PRINT_CSS,
}

STYLE_BLOCK = """\
.breaking { color: #cc0000; font-weight: 700; }
.masthead-date { font-variant: small-caps; }
.newsletter-box input { font-size: 14px; }"""

LOGO_SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="320" height="48" viewBox="0 0 320 48">'
    b'<text x="0" y="36" font-family="Georgia" font-size="32">The Prairie Ledger</text></svg>'
)


def _png(width: int = 4, height: int = 3) -> bytes:
    """A tiny valid grey PNG, so image URLs answer with real image bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + b"\x99" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


PLACEHOLDER_PNG = _png()
