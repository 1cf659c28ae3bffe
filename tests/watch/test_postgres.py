"""PostgresPipeline against a real PostgreSQL server: the upsert keeps one row per canonical URL
with a revision count, and a crawl survives a server restart with no item lost."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psycopg

from newscrawl.demo.base import Site
from newscrawl.demo.response import Response
from newscrawl.demo.server import serve_site
from newscrawl.demo.site import build_demo_site
from newscrawl.postgres import row, statements

REPO = Path(__file__).resolve().parents[2]
BODY = "The county board approved the new water plan after a long public hearing on Tuesday night. " * 4


def test_upsert_counts_revisions_and_keeps_first_seen(postgres: Any) -> None:
    create, upsert = statements("public.articles")
    item = {"url": "http://a.test/one/?utm_source=x", "canonical_url": "http://a.test/one/", "title": "Water plan",
            "published": "2025-03-01", "body": BODY, "authors": ["Ann Lee"], "first_seen": "2025-03-01T10:00:00+00:00"}
    with psycopg.connect(postgres.dsn, autocommit=True) as conn:
        conn.execute(create)
        conn.execute(create)  # created only when missing
        conn.execute(upsert, row(item))
        conn.execute(upsert, row(item))  # repeated work (a cycle after a crash): no new revision
        first = conn.execute("SELECT revisions, first_seen, last_changed, authors FROM articles").fetchall()
        edited = {**item, "body": BODY + " Correction: the vote was 4-1.", "last_changed": "2025-03-02T09:00:00+00:00"}
        conn.execute(upsert, row(edited))
        rows = conn.execute("SELECT canonical_url, revisions, first_seen, last_changed, body, item->>'url' "
                            "FROM articles").fetchall()
    assert first[0][0] == 1 and first[0][3] == ["Ann Lee"]
    assert len(rows) == 1
    canonical, revisions, first_seen, last_changed, body, url = rows[0]
    assert (canonical, revisions, url) == ("http://a.test/one/", 2, item["url"])
    assert first_seen.isoformat() == "2025-03-01T10:00:00+00:00" and last_changed.isoformat().startswith("2025-03-02")
    assert body.endswith("4-1.")


class SlowSite(Site):
    """The demo site with a delay on every page, so the crawl lasts through a server restart."""

    def __init__(self, site: Site, delay: float) -> None:
        self.site, self.delay = site, delay
        self.truth = site.truth

    def resolve(self, path_and_query: str, base_url: str = "http://127.0.0.1") -> Response:
        time.sleep(self.delay)
        return self.site.resolve(path_and_query, base_url)


def _rows(dsn: str) -> int:
    try:
        with psycopg.connect(dsn, autocommit=True, connect_timeout=2) as conn:
            return conn.execute("SELECT count(*) FROM newscrawl_articles").fetchone()[0]
    except psycopg.Error:
        return -1


def test_crawl_survives_a_server_restart_without_losing_an_item(postgres: Any, tmp_path: Path) -> None:
    out, stats_file = tmp_path / "items.jsonl", tmp_path / "stats.json"
    with serve_site(SlowSite(build_demo_site(), 0.1)) as served:
        cmd = [sys.executable, "-m", "newscrawl", "crawl", served.base_url + "/", "-o", str(out), "--local",
               "--stats", str(stats_file), "-s", f"NEWSCRAWL_POSTGRES_DSN={postgres.dsn}",
               "-s", "NEWSCRAWL_POSTGRES_BACKOFF=0.2", "-s", "CONCURRENT_REQUESTS=4", "-s", "LOG_LEVEL=INFO"]
        proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=(tmp_path / "log").open("wb"))
        deadline = time.monotonic() + 120
        while _rows(postgres.dsn) < 5 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert proc.poll() is None, "the crawl ended before the restart: nothing was tested"
        postgres.stop("fast")  # open connections are terminated; new ones refused while down
        down_at = _rows(postgres.dsn)
        restart = threading.Timer(2.0, postgres.start)
        restart.start()
        proc.wait(timeout=240)
        restart.join()
    stats = json.loads(stats_file.read_text())
    items = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    assert down_at == -1 and proc.returncode == 0
    assert stats.get("newscrawl/postgres/retries", 0) >= 1 and "newscrawl/postgres/failed" not in stats
    assert len(items) > 20 and stats["newscrawl/postgres/upserts"] == len(items)
    with psycopg.connect(postgres.dsn, autocommit=True) as conn:
        stored = {r[0] for r in conn.execute("SELECT canonical_url FROM newscrawl_articles")}
    assert stored == {item["canonical_url"] for item in items}  # every exported item is in the table
