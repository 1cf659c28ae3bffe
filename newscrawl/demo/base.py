"""The interface every servable site implements (demo, large, saved folder)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import asdict
from typing import Any
from urllib.parse import unquote

from newscrawl.demo.model import ArticleTruth, PageTruth
from newscrawl.demo.response import Response

DEFAULT_BASE = "http://127.0.0.1"


class Site:
    """Interface shared by the eager demo site, the lazy large site and saved-folder sites."""

    truth: Mapping[str, PageTruth]

    def resolve(self, path_and_query: str, base_url: str = DEFAULT_BASE) -> Response:
        raise NotImplementedError

    def html_paths(self) -> Iterator[str]:
        return iter(self.truth)

    def article_paths(self) -> list[str]:
        return [p for p, t in self.truth.items() if t.kind == "article"]

    def truth_records(self) -> Iterator[dict[str, Any]]:
        """The truth as JSON-ready dicts (one per page), e.g. for benchmark gold files."""
        for page in self.truth.values():
            yield asdict(page)

    def article(self, path: str) -> ArticleTruth:
        page = self.truth[path]
        if page.article is None:
            raise KeyError(f"{path} is a {page.kind} page, not an article")
        return page.article


def split_target(path_and_query: str) -> tuple[str, str]:
    """(percent-decoded path without fragment, raw query) of a request target."""
    path, _, query = path_and_query.partition("?")
    return unquote(path.split("#", 1)[0]) or "/", query
