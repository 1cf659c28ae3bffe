"""URL canonicalisation and site scope.

Canonical form (so one page is fetched once): lower-case scheme and host, default port dropped,
fragment dropped, tracking and session parameters removed (``utm_*``, ``fbclid``, ``sid`` ...),
``;jsessionid=`` path parameters removed, query sorted (w3lib), and ``…/index.html`` (and
``index.htm``, ``index.php``, ``default.asp(x)``) folded into ``…/``.

Scope is by registrable domain, computed with tldextract's *bundled* suffix list: the one
extractor here is built with ``suffix_list_urls=()`` and no cache, so it never touches the
network. Hosts without a public suffix (IP addresses, ``localhost``) have no registrable domain;
for them the site key is ``host:port``, so two local servers on different ports are two sites.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Iterable
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import tldextract
from w3lib.url import canonicalize_url, safe_url_string

from newscrawl.defaults import DEFAULTS
from newscrawl.textcache import text_cache

_EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)

_INDEX_RE = re.compile(r"/(?:index|default)\.(?:html?|php|aspx?|shtml)$", re.IGNORECASE)
_PATH_PARAM_RE = re.compile(r";(?:jsessionid|sid|phpsessid|sessionid)=[^/?#]*", re.IGNORECASE)

# File extensions that are never HTML pages: skipped before fetching.
NON_HTML_EXTENSIONS = frozenset(
    """
    7z aac ai apk avi bin bmp bz2 css csv dmg doc docx eot epub exe flac flv gif gz ico ics iso jar
    jpeg jpg js json m4a m4v mid midi mkv mov mp3 mp4 mpeg mpg msi odp ods odt ogg ogv otf pdf png
    ppt pptx ps psd rar rss atom svg swf tar tgz tif tiff ttf txt wav webm webp wma wmv woff woff2
    xls xlsx xml zip
    """.split()
)


def _param_matchers(patterns: Iterable[str]) -> tuple[frozenset[str], tuple[str, ...]]:
    exact, wild = set(), []
    for p in patterns:
        p = p.lower()
        (wild.append(p) if any(c in p for c in "*?[") else exact.add(p))
    return frozenset(exact), tuple(wild)


class UrlCanonicalizer:
    """Canonicalises URLs with a configurable list of query parameters to strip."""

    def __init__(self, strip_params: Iterable[str] = DEFAULTS["NEWSCRAWL_STRIP_PARAMS"]) -> None:
        self._exact, self._wild = _param_matchers(strip_params)
        self._cache: dict[str, str] = {}

    def _keep(self, name: str) -> bool:
        low = name.lower()
        return low not in self._exact and not any(fnmatch.fnmatchcase(low, w) for w in self._wild)

    def __call__(self, url: str) -> str:
        cached = self._cache.get(url)
        if cached is not None:
            return cached
        result = self._canonicalize(url)
        if len(self._cache) > 100_000:
            self._cache.clear()
        self._cache[url] = result
        return result

    def _canonicalize(self, url: str) -> str:
        parts = urlsplit(safe_url_string(url.strip()))
        scheme = parts.scheme.lower()
        host = (parts.hostname or "").lower().rstrip(".")
        port = parts.port if parts.port and (scheme, parts.port) not in {("http", 80), ("https", 443)} else None
        netloc = f"[{host}]" if ":" in host else host
        if port:
            netloc = f"{netloc}:{port}"
        path = _PATH_PARAM_RE.sub("", parts.path) or "/"
        path = _INDEX_RE.sub("/", path)
        query = ""
        if parts.query:
            pairs = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if self._keep(k)]
            query = urlencode(pairs)
        return canonicalize_url(urlunsplit((scheme, netloc, path, query, "")), keep_fragments=False)


_default_canonicalizer = UrlCanonicalizer()


def canonicalize(url: str) -> str:
    """Canonical form of ``url`` with the default parameter list (see module docstring)."""
    return _default_canonicalizer(url)


# an http(s) URL whose host is letters, digits, dots and hyphens up to the path, query, fragment or
# end: urlsplit's netloc is that host (no user, port, brackets, spaces or characters it removes)
_PLAIN_HOST = re.compile(r"[Hh][Tt][Tt][Pp][Ss]?://([A-Za-z0-9.-]+)(?=[/?#]|\Z)")


@text_cache(65536)
def registrable_domain(url_or_host: str) -> str:
    """Registrable domain of a URL or host (``news.bbc.co.uk`` -> ``bbc.co.uk``); the site key.

    For hosts without a public suffix (IPs, ``localhost``) this is ``host`` or ``host:port``.
    """
    plain = _PLAIN_HOST.match(url_or_host)
    if plain is not None:  # urlsplit's hostname for it, without urlsplit (most page links)
        domain = _host_domain(plain.group(1).lower().rstrip("."))
        if domain:
            return domain
    return _split_domain(url_or_host)


def _split_domain(url_or_host: str) -> str:
    """:func:`registrable_domain` read by urlsplit: every URL's way, which the plain-host path
    above shortens (and must agree with)."""
    text = url_or_host if "//" in url_or_host else f"//{url_or_host}"
    parts = urlsplit(text)
    host = (parts.hostname or "").lower().rstrip(".")
    domain = _host_domain(host)
    if domain:
        return domain
    port = parts.port
    if port and (parts.scheme, port) not in {("http", 80), ("https", 443)}:
        return f"{host}:{port}"
    return host


@text_cache(16384)
def _host_domain(host: str) -> str:
    """Registrable domain of a host by the bundled suffix list ("" when it has none): cached per
    host, since a page's links are many URLs on few hosts."""
    result = _EXTRACT.extract_str(host)
    return f"{result.domain}.{result.suffix}" if result.suffix and result.domain else ""


def host_of(url: str) -> str:
    return (urlsplit(url).hostname or "").lower().rstrip(".")


def is_http_url(url: str) -> bool:
    return urlsplit(url).scheme in {"http", "https"}


def extension_of(url: str) -> str:
    """Lower-case file extension of the URL path's last segment ('' when there is none)."""
    last = posixpath.basename(urlsplit(url).path)
    _, dot, ext = last.rpartition(".")
    return ext.lower() if dot and 0 < len(ext) <= 6 else ""


def looks_like_html(url: str) -> bool:
    """False for URLs whose extension says they are not HTML (images, PDFs, feeds, CSS, ...)."""
    return extension_of(url) not in NON_HTML_EXTENSIONS


class Scope:
    """Which URLs belong to the crawl: the registrable domains of the start URLs (and extras)."""

    def __init__(
        self, start_urls: Iterable[str], *, allow_subdomains: bool = True, extra_domains: Iterable[str] = ()
    ) -> None:
        self.allow_subdomains = allow_subdomains
        self.domains = {registrable_domain(u) for u in start_urls} | {registrable_domain(d) for d in extra_domains}
        self.hosts = {host_of(u) for u in start_urls} | {d.lower() for d in extra_domains}

    def add(self, url: str) -> None:
        self.domains.add(registrable_domain(url))
        self.hosts.add(host_of(url))

    def __contains__(self, url: str) -> bool:
        if not is_http_url(url):
            return False
        if registrable_domain(url) not in self.domains:
            return False
        return self.allow_subdomains or host_of(url) in self.hosts
