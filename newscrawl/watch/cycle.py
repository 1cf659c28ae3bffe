"""One watch cycle: which URLs to fetch, which articles to export, what to remember. Plain Python.

The Scrapy adapters (:mod:`newscrawl.watch.crawl`) call this with URLs and item mappings only.

Crash safety (a kill -9 at any point loses no article and duplicates none on the next cycle) rests
on the order of writes:

1. an article is exported first (the feed line is written unbuffered), and only then recorded
   here with :meth:`Cycle.exported`, together with how far the feed file is accounted for; a kill
   between the two is repaired by :meth:`Cycle.reconcile`, which records the feed lines past that
   offset (and cuts a torn last line) before the next cycle starts: output is never repeated;
2. a page without an article is recorded when its callback is done (:meth:`Cycle.page_done`);
3. a front's validators (ETag, Last-Modified, its lastmod in the sitemap index) are stored only
   at the end of a cycle that finished, and only when every URL it made the cycle follow is
   recorded: otherwise the next cycle reads the front again in full and follows what is still
   unrecorded. A crash repeats work (fetches), never output.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from newscrawl.watch.entries import parse_date
from newscrawl.watch.fingerprint import Revision
from newscrawl.watch.schedule import Bounds, is_due, next_interval
from newscrawl.watch.state import ArticleRecord, FrontRecord, PageRecord, WatchState

logger = logging.getLogger(__name__)

NEW, UPDATED, DUPLICATE, UNCHANGED = "new", "updated", "duplicate", "unchanged"
PAGE_KINDS = ("page", "feed", "sitemap")


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds")


def _later(date: str, than: str) -> bool:
    """``date`` is after ``than`` (both as stated by sitemaps or feeds; text order when unparsable).
    A feed's pubDate and a sitemap's lastmod of one article differ: only a later date is a change."""
    if not date:
        return False
    if not than:
        return True
    a, b = parse_date(date), parse_date(than)
    return a > b if a is not None and b is not None else date != than


def from_iso(text: Any, default: float) -> float:
    value = parse_date(str(text)) if text else None
    return value.timestamp() if value else default


@dataclass
class Verdict:
    kind: str  # NEW, UPDATED, DUPLICATE or UNCHANGED
    first_seen: float
    last_changed: float
    revision: int
    reason: str = ""

    @property
    def export(self) -> bool:
        return self.kind in (NEW, UPDATED)


@dataclass
class Visit:
    """A front fetched this cycle: its answer, and the URLs it made the cycle follow."""

    front: FrontRecord
    not_modified: bool = False
    etag: str = ""
    last_modified: str = ""
    followed: set[str] = field(default_factory=set)
    new: int = 0


@dataclass
class Link:
    url: str
    kind: str  # "page", "feed" or "sitemap"
    date: str = ""  # the lastmod/pubDate its front states for it, if any


@dataclass
class Follow:
    url: str
    recheck: bool  # a known page whose stated date changed: fetched again (conditionally)
    headers: dict[str, str]


class Cycle:
    def __init__(
        self,
        state: WatchState,
        *,
        bounds: Bounds,
        since: datetime | None = None,
        max_fronts: int = 10,
        front_min_articles: int = 3,
        forget_days: float = 30.0,
        now: float | None = None,
    ) -> None:
        self.state = state
        self.bounds = bounds
        self.now = time.time() if now is None else now
        self.full = state.meta("full_done") != "1"
        self.since = since if self.full else None
        self.max_fronts = max_fronts
        self.front_min_articles = front_min_articles
        self.forget_days = forget_days
        self.known_fronts = {f.url: f for f in state.fronts()}
        self.visits: dict[str, Visit] = {}
        self.candidates: dict[str, tuple[str, frozenset[str], str, str]] = {}  # url -> (site, links, validators)
        self.done: set[str] = set()
        self.stated: dict[str, str] = {}  # latest date a sitemap/feed stated for a page this cycle
        self.judged: set[str] = set()  # canonical URLs and fingerprints given a verdict this cycle
        self.counts: dict[str, int] = {}

    def count(self, name: str, n: int = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + n

    # --- what to fetch first ----------------------------------------------------------------
    def due_fronts(self) -> list[FrontRecord]:
        """Fronts to read in an incremental cycle, due by their interval: all but the sitemaps whose
        index states their lastmod (those are read when that lastmod changes)."""
        return [
            f
            for f in self.known_fronts.values()
            if (not f.parent or not f.lastmod) and is_due(f.next_due, self.now, self.bounds)
        ]

    def conditional_headers(self, url: str) -> dict[str, str]:
        front = self.known_fronts.get(url)
        etag, modified = (front.etag, front.last_modified) if front else ("", "")
        if front is None:
            page = self.state.pages([url]).get(url)
            if page is not None and page.kind == "article":
                etag, modified = page.etag, page.last_modified
        headers = {}
        if etag:
            headers["If-None-Match"] = etag
        if modified:
            headers["If-Modified-Since"] = modified
        return headers

    # --- fronts -----------------------------------------------------------------------------
    def visit(
        self,
        url: str,
        kind: str,
        site: str,
        *,
        parent: str = "",
        lastmod: str = "",
        status: int = 200,
        etag: str = "",
        last_modified: str = "",
    ) -> Visit:
        """A front was answered (200, or 304 when not modified)."""
        known = self.known_fronts.get(url)
        front = replace(
            known or FrontRecord(url=url, site=site, kind=kind),
            kind=kind,
            parent=parent or (known.parent if known else ""),
        )
        if lastmod:
            front.lastmod = lastmod
        visit = self.visits.get(url) or Visit(front)
        visit.front = front
        visit.not_modified = status == 304
        visit.etag, visit.last_modified = etag, last_modified
        self.visits[url] = visit
        if visit.not_modified:
            self.state.renew_front(url, self.now)  # what it listed is still listed
        self.count("fronts/not_modified" if status == 304 else "fronts/read")
        return visit

    def front_candidate(
        self, url: str, site: str, article_links: Iterable[str], etag: str = "", last_modified: str = ""
    ) -> None:
        """A page near a start page (full cycle) without an article, and the likely article URLs it links."""
        links = frozenset(article_links)
        if self.full and len(links) >= self.front_min_articles:
            self.candidates[url] = (site, links, etag, last_modified)

    def _section_fronts(self) -> list[FrontRecord]:
        """Per site, the candidates that link the most likely articles of their own: a link on
        more than half of a site's candidates (a "most read" box, a menu) counts for none."""
        fronts = []
        by_site: dict[str, list[tuple[str, frozenset[str], str, str]]] = {}
        for url, (site, links, etag, modified) in self.candidates.items():
            if url not in self.visits:
                by_site.setdefault(site, []).append((url, links, etag, modified))
        for site, pages in by_site.items():
            frequency = Counter(link for _, links, _, _ in pages for link in links)
            chrome = {link for link, n in frequency.items() if len(pages) >= 3 and n > len(pages) / 2}
            ranked = sorted(
                ((len(links - chrome), url, etag, modified) for url, links, etag, modified in pages), reverse=True
            )
            for score, url, etag, modified in ranked[: self.max_fronts]:
                if score >= self.front_min_articles:
                    fronts.append(
                        FrontRecord(
                            url=url,
                            site=site,
                            kind="section",
                            etag=etag,
                            last_modified=modified,
                            interval=self.bounds.low,
                            next_due=self.now + self.bounds.low,
                            last_checked=self.now,
                        )
                    )
        return fronts

    def is_front(self, url: str) -> bool:
        return url in self.visits

    # --- which links to follow --------------------------------------------------------------
    def follow(self, parent: str | None, links: Iterable[Link]) -> list[Follow]:
        """The links of a fetched page (``parent`` = its URL when it is a front) worth fetching."""
        links = list(links)
        visit = self.visits.get(parent) if parent else None
        if not self.full and visit is None:  # incremental: only fronts announce new articles
            self.count("links/below_fronts", len(links))
            return []
        pages = self.state.pages(link.url for link in links)
        if visit is not None and not visit.not_modified:
            self.state.list_front(visit.front.url, [link.url for link in links], self.now)
        out: list[Follow] = []
        listed: list[str] = []
        for link in links:
            known = pages.get(link.url)
            if link.kind == "page" and link.date and _later(link.date, self.stated.get(link.url, "")):
                self.stated[link.url] = link.date  # whichever request fetches the page records it
            if link.kind != "page":
                follow = self._follow_front(link)
                if follow is not None:
                    out.append(follow)
                continue
            if link.url in self.known_fronts or link.url in self.visits:
                continue  # a page links a front (the logo's link home): read as a front, when due
            if known is None:
                if self.since is not None and not self._after_since(link, visit):
                    listed.append(link.url)
                    continue
                out.append(Follow(link.url, False, {}))
                if visit is not None:
                    visit.new += 1
                self.count("links/new")
            elif known.kind == "article" and link.date and _later(link.date, known.lastmod):
                if known.lastmod:
                    out.append(Follow(link.url, True, self.conditional_headers(link.url)))
                    self.count("links/recheck")
                else:  # first date heard for it (found through a link before): the baseline
                    self.state.put_page(replace(known, lastmod=link.date))
            elif self.full and known.kind == "other":
                out.append(Follow(link.url, False, {}))  # a listing: read again for its links
            else:
                self.count("links/seen")
        if listed:
            self.state.put_listed(listed, self.now)
            self.count("links/listed", len(listed))
        if visit is not None:
            kinds = {link.url: link.kind for link in links}
            visit.followed.update(f.url for f in out if kinds.get(f.url) == "page")
        return out

    def _after_since(self, link: Link, visit: Visit | None) -> bool:
        if visit is None or visit.front.kind not in ("feed", "sitemap"):
            return False
        stated = parse_date(link.date) if link.date else None
        return stated is not None and self.since is not None and stated >= self.since

    def _follow_front(self, link: Link) -> Follow | None:
        known = self.known_fronts.get(link.url)
        if link.url in self.visits:
            return None  # read this cycle already
        if self.full or known is None:
            return Follow(link.url, False, self.conditional_headers(link.url))
        if known.parent and known.lastmod and link.date:  # a sitemap of an index: when its lastmod there changes
            if link.date != known.lastmod:
                return Follow(link.url, False, self.conditional_headers(link.url))
            self.count("fronts/unchanged_in_index")
        return None  # a front started directly: read when due, not when linked

    # --- pages and articles -----------------------------------------------------------------
    def page_done(
        self, url: str, kind: str = "other", *, lastmod: str = "", etag: str = "", last_modified: str = ""
    ) -> None:
        """A fetched page's outcome is final (no article, or an article dropped or unchanged)."""
        self.done.add(url)
        known = self.state.pages([url]).get(url)
        kind = "article" if known is not None and known.kind == "article" else kind
        if _later(self.stated.get(url, ""), lastmod):
            lastmod = self.stated[url]
        self.state.put_page(
            PageRecord(
                url,
                kind,
                known.first_seen if known else self.now,
                self.now,
                lastmod or (known.lastmod if known else ""),
                etag,
                last_modified,
            )
        )

    def judge(self, item: Mapping[str, Any]) -> Verdict:
        """New, updated, duplicate (same canonical URL or content as another export) or unchanged."""
        canonical = str(item.get("canonical_url") or item.get("url"))
        revision = Revision.of_item(item)
        if canonical in self.judged or (revision.fingerprint and revision.fingerprint in self.judged):
            return Verdict(DUPLICATE, self.now, self.now, 0, "this cycle")
        old = self.state.article(canonical)
        if old is None and revision.fingerprint:
            old_fp = self.state.article_by_fingerprint(revision.fingerprint)
            if old_fp is not None:
                return Verdict(DUPLICATE, old_fp.first_seen, old_fp.last_changed, old_fp.revisions, old_fp.canonical)
        self.judged.add(canonical)
        if revision.fingerprint:
            self.judged.add(revision.fingerprint)
        if old is None:
            return Verdict(NEW, self.now, self.now, 1)
        changes = old.revision.changes(revision)
        if not changes:
            return Verdict(UNCHANGED, old.first_seen, old.last_changed, old.revisions)
        return Verdict(UPDATED, old.first_seen, self.now, old.revisions + 1, ",".join(changes))

    def exported(
        self,
        item: Mapping[str, Any],
        page_url: str | None = None,
        *,
        lastmod: str = "",
        etag: str = "",
        last_modified: str = "",
        outputs: Iterable[tuple[str, int]] = (),
    ) -> bool:
        """Record an exported item (idempotent: a second call for the same content changes
        nothing but the offsets). True when it was not recorded before."""
        canonical = str(item.get("canonical_url") or item.get("url"))
        url = str(page_url or item.get("url") or canonical)
        revision = Revision.of_item(item)
        for stated in (item.get("modified"), item.get("published"), self.stated.get(url)):  # the baseline
            if stated and _later(str(stated), lastmod):
                lastmod = str(stated)
        old = self.state.article(canonical)
        fresh = old is None or old.revision != revision
        article = None
        if fresh:
            article = ArticleRecord(
                canonical=canonical,
                url=url,
                fingerprint=revision.fingerprint or "",
                title_hash=revision.title_hash,
                published=revision.published,
                body_hash=revision.body_hash,
                first_seen=from_iso(item.get("first_seen"), self.now),
                last_changed=from_iso(item.get("last_changed"), self.now),
                last_seen=self.now,
                revisions=(old.revisions + 1) if old is not None else 1,
            )
        known = self.state.pages([url]).get(url)
        page = PageRecord(
            url,
            "article",
            known.first_seen if known else self.now,
            self.now,
            lastmod or (known.lastmod if known else ""),
            etag,
            last_modified,
        )
        self.state.put_article(article, page, outputs)
        self.done.add(url)
        return fresh

    # --- crash repair -----------------------------------------------------------------------
    def reconcile(self, path: str) -> int:
        """Record the JSON Lines items of ``path`` written after the last recorded offset (a kill
        between export and record) and cut a torn last line. Returns items recorded."""
        try:
            size = os.path.getsize(path)
        except OSError:
            return 0
        offset = self.state.output_offset(path)
        if offset > size:  # the file was replaced: read it whole (recording is idempotent)
            offset = 0
        with open(path, "rb") as f:
            f.seek(offset)
            tail = f.read()
        end = tail.rfind(b"\n") + 1
        recorded = 0
        for line in tail[:end].splitlines():
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError:
                self.count("reconcile/unreadable")
                continue
            if isinstance(item, dict) and (item.get("canonical_url") or item.get("url")):
                recorded += self.exported(item)
        if end < len(tail):  # a line cut by a kill mid-write: its article is fetched again
            with open(path, "r+b") as f:
                f.truncate(offset + end)
            self.count("reconcile/torn_lines")
            logger.warning("Watch: cut a torn last line from %s (its article is fetched again)", path)
        self.state.set_output_offset(path, offset + end)
        if recorded:
            self.count("reconcile/recorded", recorded)
            logger.warning("Watch: %d exported item(s) of %s recorded after an interrupted cycle", recorded, path)
        return recorded

    # --- end of cycle -----------------------------------------------------------------------
    def finish(self, completed: bool) -> None:
        """Store fronts (validators only where everything they announced is recorded), the new
        intervals and, for a completed full cycle, the section fronts; forget old entries."""
        fronts: list[FrontRecord] = []
        for url, visit in self.visits.items():
            front = replace(visit.front)
            clean = completed and not visit.followed - self.done - self.visits.keys()
            if not visit.not_modified and clean:
                front.etag, front.last_modified = visit.etag, visit.last_modified
            elif not clean:
                front.etag = front.last_modified = ""  # read in full next time
                missing = sorted(visit.followed - self.done - self.visits.keys())
                logger.info(
                    "Watch: front %s read in full next cycle: %d URL(s) it announced unrecorded (%s)",
                    url,
                    len(missing),
                    ", ".join(missing[:3]),
                )
                if url in self.known_fronts and front.parent:
                    front.lastmod = ""
                self.count("fronts/unsettled")
            front.interval = next_interval(front.interval or None, visit.new, self.bounds)
            front.next_due = self.now + front.interval
            front.last_checked = self.now
            front.found += visit.new
            fronts.append(front)
        if self.full and completed:
            fronts.extend(self._section_fronts())
        self.state.put_fronts(fronts)
        if completed:
            if self.full:
                self.state.set_meta("full_done", "1")
            cycles = int(self.state.meta("cycles") or 0) + 1
            self.state.set_meta("cycles", str(cycles))
            if self.forget_days > 0:
                self.count("expired", self.state.expire(self.now - self.forget_days * 86400))
