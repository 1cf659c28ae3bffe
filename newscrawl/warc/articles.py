"""Articles out of WARC/ARC files: the same extraction, page classifier and (optionally) per-domain
templates as ``extract --batch``, one output object per HTML 200 response.

An output object has the fields of ``extract --batch`` (``Article.to_dict()``: title, published,
body, is_article, probability, provenance, ...) with the record's ``url``, ``domain``,
``fetched_at`` (WARC-Date) and ``status`` as a crawl item has them, plus ``warc``: ``file``,
``offset``, ``record_id``, ``date`` (and ``revisit_of`` for a resolved revisit). A page the
extractor fails on gets ``error`` instead of fields, as in batch mode; it never stops the file.

The page payload is handed to the extractor as bytes with the HTTP Content-Type, so it is decoded
as a crawl decodes it (BOM, HTTP charset, ``<meta charset>``, fallback). ``--workers`` runs the
pages of all files over one process pool (:func:`newscrawl.parallel.ordered_map`), in input order.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from newscrawl.parallel import Failed, ordered_map
from newscrawl.warc.reader import Counts, Response, iter_responses

logger = logging.getLogger(__name__)

# Pages learnt together by --site-templates: a domain's pages of a file in groups of at most this
# many (bounded memory and time: each page is mapped onto 5 others of its group; 3..GROUP work).
TEMPLATE_GROUP_MAX = 50
PAGE_TIMEOUT = 120.0
_ERROR_FIELDS = ("title", "published", "body", "is_article", "probability")

Job = tuple[
    str, bytes, str, dict[str, Any], str, str | None, int
]  # url, body, content type, warc, domain, date, status


@dataclass(frozen=True)
class Options:
    """What to extract and keep. ``domains``: registrable domains or hosts (a page is kept when its
    host is one of them or under one); ``since``/``until``: ISO dates bounding ``published``
    (inclusive; a page without a date is then left out)."""

    method: str = "nce"
    articles_only: bool = False
    domains: tuple[str, ...] = ()
    since: str | None = None
    until: str | None = None
    site_templates: bool = False
    page_timeout: float = PAGE_TIMEOUT
    style_elements: bool | None = None
    page_model: str | None = None
    stylesheets: bool = False  # pages' external stylesheets from the input files (newscrawl.warc.styles)


def _host(url: str) -> str:
    from urllib.parse import urlsplit

    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


def domain_matches(url: str, domains: Iterable[str]) -> bool:
    host = _host(url)
    return any(host == d or host.endswith("." + d) for d in domains)


def _registrable(url: str) -> str | None:
    from newscrawl.links.urls import registrable_domain

    try:
        return registrable_domain(url) or None
    except ValueError:
        return None


def in_range(published: str | None, since: str | None, until: str | None) -> bool:
    """ISO dates compare as strings on their first 10 characters (the day)."""
    if since is None and until is None:
        return True
    if not published:
        return False
    day = published[:10]
    return (since is None or day >= since[:10]) and (until is None or day <= until[:10])


def _job(response: Response) -> Job:
    warc: dict[str, Any] = {
        "file": response.file,
        "offset": response.offset,
        "record_id": response.record_id,
        "date": response.date,
    }
    if response.revisit_of:
        warc["revisit_of"] = response.revisit_of
    return (
        response.url,
        response.body,
        response.content_type,
        warc,
        _registrable(response.url) or "",
        response.date,
        response.status,
    )


def page_jobs(paths: Iterable[str], options: Options, counts: Counts, failed: list[str] | None = None) -> Iterator[Job]:
    """The extraction jobs of ``paths`` in order, after the domain filter (before extraction: it
    costs nothing); files that cannot be opened go to ``failed``."""
    for path in paths:
        counts["files"] += 1
        unreadable = counts["unreadable_files"]
        yield from _file_jobs(path, options, counts)
        if failed is not None and counts["unreadable_files"] > unreadable:
            failed.append(path)


def _file_jobs(path: str, options: Options, counts: Counts) -> Iterator[Job]:
    for response in iter_responses(path, counts):
        if options.domains and not domain_matches(response.url, options.domains):
            counts["other_domains"] += 1
            continue
        yield _job(response)


# --- per-domain templates (the batch path's, learnt inside each file) -------------------------------
def file_templates(paths: Iterable[str], options: Options) -> dict[Any, Any]:
    """Template per page (the batch path's keys) for each file's domains with >= 3 pages, learnt in
    groups of at most TEMPLATE_GROUP_MAX pages of one domain and one file."""
    from newscrawl.page import Page
    from newscrawl.template.batch import _page_key
    from newscrawl.template.detect import templates_for_group

    result: dict[Any, Any] = {}

    def learn(group: list[Job]) -> None:
        if len(group) < 3:
            return
        pages = [(str(k), job[0], Page.from_html(job[1], job[0], http_charset=job[2])) for k, job in enumerate(group)]
        for k, template in templates_for_group(pages).items():
            job = group[int(k)]
            result[_page_key(job[1], job[0])] = template

    for path in paths:
        groups: dict[str, list[Job]] = {}
        for job in page_jobs([path], options, Counts()):
            if not job[4]:
                continue
            group = groups.setdefault(job[4], [])
            group.append(job)
            if len(group) >= TEMPLATE_GROUP_MAX:
                learn(groups.pop(job[4]))
        for group in groups.values():
            learn(group)
    return result


# --- extraction in each (worker) process --------------------------------------------------------
_run: Callable[[bytes, str, str], Any] | None = None
_timeout = 0.0


def start(options: Options, templates: dict[Any, Any] | None = None, css_index: dict[str, Any] | None = None) -> None:
    """Build this process's page function once: ``extract`` with the options' method, the page's
    archived stylesheets when ``css_index`` is given, removing the page's template when
    ``templates`` has one."""
    global _run, _timeout
    from newscrawl.encoding import decode_html
    from newscrawl.extract import extract

    archived = None
    if css_index is not None:
        from newscrawl.warc.styles import ArchivedStylesheets

        archived = ArchivedStylesheets(css_index)

    def sheets(html: bytes, url: str, charset: str) -> list[Any]:
        return [] if archived is None else archived.for_page(html, decode_html(html, charset or None)[0], url)

    def plain(html: bytes, url: str, charset: str) -> Any:
        return extract(
            html,
            url,
            sheets(html, url, charset),
            method=options.method,
            http_charset=charset or None,
            style_elements=options.style_elements,
            page_model=options.page_model,
        )

    run = plain
    if templates:
        from newscrawl.extract.api import extract_page
        from newscrawl.page import Page
        from newscrawl.template.batch import _page_key
        from newscrawl.template.extraction import remove_template

        def templated(html: bytes, url: str, charset: str) -> Any:
            template = templates.get(_page_key(html, url))
            if template is None:
                return plain(html, url, charset)
            page = Page.from_html(
                html,
                url,
                stylesheets=tuple(sheets(html, url, charset)),
                http_charset=charset or None,
                style_elements=options.style_elements,
            )
            article = extract_page(page)
            article.body, removed = remove_template(page, template, article.body, "after")
            article.provenance["template"] = {"id": template.id, "removed": removed, "pages": template.pages}
            return article

        run = templated
    _run, _timeout = run, options.page_timeout


def extract_job(job: Job) -> dict[str, Any]:
    """The output object of one page (``error`` instead of fields when extraction failed)."""
    from newscrawl.timelimit import TimeLimitExceeded, page_time_limit

    url, body, charset, warc, domain, date, status = job
    out: dict[str, Any] = {"url": url, "domain": domain or None, "fetched_at": date, "status": status}
    if _run is None:
        raise RuntimeError("start() was not called in this process")
    try:
        with page_time_limit(_timeout):
            article = _run(body, url, charset).to_dict()
    except (Exception, TimeLimitExceeded) as exc:  # one bad page must not stop the file
        return error_line(out, warc, f"{exc.__class__.__name__}: {exc}")
    article.pop("url", None)
    out.update(article)
    out["warc"] = warc
    return out


def error_line(out: dict[str, Any], warc: dict[str, Any], error: str) -> dict[str, Any]:
    out.update({name: None for name in _ERROR_FIELDS})
    out["error"] = error
    out["warc"] = warc
    return out


def _kept(line: dict[str, Any], options: Options, counts: Counts) -> bool:
    if "error" in line:
        counts["errors"] += 1
        return not options.articles_only and options.since is None and options.until is None
    counts["pages"] += 1
    if line.get("is_article"):
        counts["articles"] += 1
    elif options.articles_only:
        return False
    if not in_range(line.get("published"), options.since, options.until):
        counts["out_of_range"] += 1
        return False
    return True


def lines(
    paths: Iterable[str],
    options: Options = Options(),
    *,
    workers: int = 1,
    counts: Counts | None = None,
    css_index: dict[str, Any] | None = None,
    failed: list[str] | None = None,
) -> Iterator[dict[str, Any]]:
    """Output objects of the HTML 200 responses of ``paths``, in file and record order, after the
    filters; ``counts`` gets what was read, skipped and kept, ``failed`` the files that could not
    be opened. With ``options.stylesheets`` the stylesheets come from ``css_index`` (default:
    indexed from ``paths``)."""
    paths = list(paths)
    counts = counts if counts is not None else Counts()
    templates = file_templates(paths, options) if options.site_templates else None
    if options.stylesheets and css_index is None:
        from newscrawl.warc.styles import stylesheet_index

        css_index = stylesheet_index(paths)
    jobs = page_jobs(paths, options, counts, failed)
    for job, out in ordered_map(
        extract_job,
        jobs,
        workers,
        initializer=start,
        initargs=(options, templates, css_index if options.stylesheets else None),
    ):
        if isinstance(out, Failed):
            out = error_line(
                {"url": job[0], "domain": job[4] or None, "fetched_at": job[5], "status": job[6]}, job[3], out.reason
            )
        if _kept(out, options, counts):
            yield out


def iter_articles(
    path: str | Iterable[str],
    *,
    articles_only: bool = True,
    workers: int = 1,
    counts: Counts | None = None,
    **options: Any,
) -> Iterator[dict[str, Any]]:
    """The articles of one WARC/ARC file (or several), as ``extract --warc`` writes them.

    ``articles_only=False`` yields every HTML page with ``is_article`` saying which; other
    keyword arguments are :class:`Options` fields (``domains``, ``since``, ``until``, ``method``,
    ``site_templates``, ...). Needs the ``warc`` extra (warcio)."""
    paths = [path] if isinstance(path, str) else list(path)
    if "domains" in options:
        options["domains"] = tuple(options["domains"])
    yield from lines(paths, Options(articles_only=articles_only, **options), workers=workers, counts=counts)
