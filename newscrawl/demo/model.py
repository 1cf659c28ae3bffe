"""Content model of the demo sites and the ground truth tests compare against.

``Article`` is what the renderer needs; ``ArticleTruth``/``PageTruth`` are the public, frozen
answers (kind of every HTML page; title, date, authors, body paragraphs of every article) so the
spider, extraction, classification and template tests can score themselves against the site.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

TZ = timezone(timedelta(hours=-6))

SECTIONS: tuple[tuple[str, str], ...] = (
    ("politics", "Politics"),
    ("business", "Business"),
    ("environment", "Environment"),
    ("sports", "Sports"),
    ("culture", "Culture"),
)
SECTION_NAMES = dict(SECTIONS)


@dataclass(frozen=True)
class Author:
    slug: str
    name: str
    bio: str

    @property
    def path(self) -> str:
        return f"/author/{self.slug}/"


@dataclass(frozen=True)
class Comment:
    user: str
    posted: datetime
    text: str


@dataclass
class Article:
    """One article as the renderer sees it. ``date_style``/``meta`` choose how its date shows."""

    idx: int
    path: str
    title: str
    standfirst: str
    section: str
    published: datetime
    modified: datetime | None
    authors: tuple[Author, ...]
    tags: tuple[str, ...]
    paragraphs: tuple[str, ...]
    caption: str
    date_style: int
    meta: tuple[str, ...]
    comments: tuple[Comment, ...] = ()
    only_in: str | None = None
    related: tuple[Article, ...] = field(default=(), repr=False)

    def truth(self) -> ArticleTruth:
        return ArticleTruth(
            path=self.path,
            title=self.title,
            published=self.published.date().isoformat(),
            published_at=self.published.isoformat(),
            authors=[a.name for a in self.authors],
            section=self.section,
            paragraphs=list(self.paragraphs),
            has_comments=bool(self.comments),
            only_in=self.only_in,
            date_metadata=list(self.meta),
            tags=list(self.tags),
            modified_at=self.modified.isoformat() if self.modified else None,
        )


@dataclass(frozen=True)
class ArticleTruth:
    """Gold values for one article page.

    published: ``YYYY-MM-DD``; published_at: full ISO 8601 with offset; modified_at: the later
    "Updated" time (ISO, in dateModified/article:modified_time where the page has that metadata)
    or None; paragraphs: the body as shown in ``div.article-body`` (the inline "Read also" box
    and the comments are not body);
    only_in: ``"sitemap"`` or ``"feed"`` when no HTML page links the article; date_metadata: which
    machine-readable sources carry the date (subset of ``jsonld``, ``meta``, ``time``; empty means
    the date is only in visible text). Sequences are lists, to compare equal with extracted
    values and JSON; tags are slugs (``/tag/<slug>/``).
    """

    path: str
    title: str
    published: str
    published_at: str
    authors: list[str]
    section: str
    paragraphs: list[str]
    has_comments: bool
    only_in: str | None
    date_metadata: list[str]
    tags: list[str]
    modified_at: str | None = None

    @property
    def body(self) -> str:
        return "\n".join(self.paragraphs)


@dataclass(frozen=True)
class PageTruth:
    """kind: home, section, article, tag, author, gallery, video, static, private, archive."""

    path: str
    kind: str
    article: ArticleTruth | None = None
