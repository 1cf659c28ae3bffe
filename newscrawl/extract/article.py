"""What extraction returns (:class:`Article`) and hands the page classifier (:class:`Evidence`).

Plain data types in a module of their own, below both the extraction pipeline
(:mod:`newscrawl.extract.api`) and the page classifier (:mod:`newscrawl.classify`), so each of
those imports them without importing the other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from newscrawl.page import Page


@dataclass
class Article:
    """What :func:`newscrawl.extract` found. ``body`` is None when the page has no convincing article text."""

    title: str | None = None
    published: str | None = None
    modified: str | None = None
    authors: list[str] = field(default_factory=list)
    language: str | None = None
    body: str | None = None
    is_article: bool = False
    probability: float = 0.0
    provenance: dict[str, dict[str, Any]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Evidence:
    """What the NCE pipeline found besides the Article (text-node indices into ``page.text_nodes``),
    handed to the page classifier so its features reuse the extraction instead of redoing it."""

    relevant: tuple[int, ...]  # NCE's relevant content
    comment_cut: int | None  # first text node of a comment section NCE found (removed when named), if any
    title_node: int | None
    title_score: float
    date_nodes: tuple[int, ...]
    visible_date: str | None  # the date the visible-date model read, also when metadata has one


# (page, article so far, metadata or None, evidence) -> (is_article, probability)
Classifier = Callable[[Page, Article, Any, Evidence], tuple[bool, float]]
