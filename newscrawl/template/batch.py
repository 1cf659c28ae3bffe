"""``newscrawl extract --batch MANIFEST --site-templates``: templates learned inside a manifest.

Manifest lines sharing a ``site`` value (without one: the registrable domain of ``url``) form a
group; in a group of at least 3 pages each page gets the template learned from the others by
mapping them directly (``templates_for_group``: their links need not lead to each other). A
first pass learns the templates group by group and keeps only the templates; the extraction pass
then removes each page's template around extraction (with ``--workers``, each worker process gets
the templates once). Pages without a group template are extracted as usual. The output format is
unchanged (``extraction`` provenance gains ``template``).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from newscrawl.evaluate import read_page
from newscrawl.links.urls import registrable_domain
from newscrawl.page import Page
from newscrawl.template.detect import templates_for_group
from newscrawl.template.extraction import remove_template
from newscrawl.template.model import Template

logger = logging.getLogger(__name__)


def _page_key(html: bytes, url: str | None) -> tuple[str | None, str]:
    return url, hashlib.blake2b(html, digest_size=16).hexdigest()


def manifest_templates(manifest: Path, **options: Any) -> dict[tuple[str | None, str], Template]:
    """Template per page (keyed by URL and content digest) for the manifest's groups of >= 3."""
    groups: dict[str, list[tuple[str | None, Path]]] = defaultdict(list)
    with open(manifest, encoding="utf-8") as handle:
        for line in handle:
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # reported by the extraction pass
            if not isinstance(entry, dict) or not entry.get("path"):
                continue
            url = entry.get("url")
            site = entry.get("site") or (registrable_domain(url) if url else None)
            if site:
                groups[str(site)].append((url, manifest.parent / entry["path"]))
    result: dict[tuple[str | None, str], Template] = {}
    for site, members in groups.items():
        if len(members) < 3:
            continue
        pages: list[Any] = []
        keys: list[Any] = []
        for url, path in members:
            try:
                html = read_page(path)
            except OSError:
                continue
            keys.append(_page_key(html, url))
            pages.append((str(len(pages)), url, Page.from_html(html, url)))
        for k, template in templates_for_group(pages, **options).items():
            result[keys[int(k)]] = template
        logger.info("site %s: %d page templates", site, len(pages))
    return result


def templated(
    templates: dict[tuple[str | None, str], Template],
    fallback: Callable[[bytes, str | None], Any],
    mode: str = "after",
    style_elements: bool | None = None,
) -> Callable[[bytes, str | None], Any]:
    """An ``extract(html, url)`` that removes the page's group template (``templates``, from
    :func:`manifest_templates`) around NCE extraction; pages without one go to ``fallback``.
    ``style_elements`` as in :func:`newscrawl.extract` (the fallback has its own)."""
    from newscrawl.extract.api import extract_page

    def run(html: bytes, url: str | None) -> Any:
        template = templates.get(_page_key(html, url))
        if template is None:
            return fallback(html, url)
        page = Page.from_html(html, url, style_elements=style_elements)
        article = extract_page(page)
        article.body, removed = remove_template(page, template, article.body, mode)
        article.provenance["template"] = {"id": template.id, "removed": removed, "pages": template.pages}
        return article

    return run
