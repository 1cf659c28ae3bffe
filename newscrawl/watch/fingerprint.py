"""Content fingerprints: the same article under two URLs (moved, re-slugged, tracking variants)
must be exported once, and a real edit (title, date or body) must be told from a re-render.

Plain Python (no Scrapy). The fingerprint hashes the normalised title and body, so markup,
whitespace and case changes do not count as edits; a page without enough body text gets no
fingerprint (two short teasers with one title are not the same article) and is deduplicated by
canonical URL only.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

MIN_BODY_CHARS = 200  # shorter bodies get no fingerprint: too little text to call two pages one article
_SPACE = re.compile(r"\s+")
_PUNCT = re.compile(r"[^\w\s]")


def normalize(text: str | None) -> str:
    """Case-, accent-form-, punctuation- and whitespace-insensitive form of ``text``."""
    if not text:
        return ""
    text = unicodedata.normalize("NFKC", text).casefold()
    return _SPACE.sub(" ", _PUNCT.sub(" ", text)).strip()


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Revision:
    """What identifies an article's content: hashes of its title and body, its stated date."""

    title_hash: str
    published: str
    body_hash: str
    fingerprint: str | None  # None when the body is too short to identify the article

    @classmethod
    def of(cls, title: Any, published: Any, body: Any) -> Revision:
        title_n, body_n = normalize(str(title or "")), normalize(str(body or ""))
        fingerprint = _digest(f"{title_n}\n{body_n}") if len(body_n) >= MIN_BODY_CHARS else None
        return cls(_digest(title_n), str(published or ""), _digest(body_n), fingerprint)

    @classmethod
    def of_item(cls, item: Any) -> Revision:
        """The revision of an exported item (a mapping with title, published, body)."""
        return cls.of(item.get("title"), item.get("published"), item.get("body"))

    def changes(self, other: Revision) -> list[str]:
        """The fields (title, published, body) that differ between two revisions."""
        return [
            name
            for name, a, b in (
                ("title", self.title_hash, other.title_hash),
                ("published", self.published, other.published),
                ("body", self.body_hash, other.body_hash),
            )
            if a != b
        ]
