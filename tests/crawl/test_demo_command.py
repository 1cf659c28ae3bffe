"""README command (1): `newscrawl demo` serves the demo site and crawls it with the full pipeline."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from newscrawl.demo.site import build_demo_site

REPO = Path(__file__).resolve().parents[2]


def test_demo_command_writes_extracted_articles(tmp_path):
    out = tmp_path / "demo.jsonl"
    proc = subprocess.run([sys.executable, "-m", "newscrawl", "demo", "-o", str(out), "--log-level", "WARNING"],
                          cwd=REPO, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    printed = re.search(r"wrote (\d+) articles to (.+)$", proc.stdout, re.MULTILINE)
    assert printed and int(printed.group(1)) == len(items) and Path(printed.group(2)) == out

    site = build_demo_site()
    truth = {a.title: a for a in (site.article(p) for p in site.article_paths())}
    assert len(items) >= 0.9 * len(truth)
    assert all(item["is_article"] for item in items)
    right_titles = [item for item in items if item.get("title") in truth]
    assert len(right_titles) >= 0.9 * len(items)
    right_dates = [item for item in right_titles if (item.get("published") or "")[:10] == truth[item["title"]].published]
    assert len(right_dates) >= 0.9 * len(right_titles)
    first = truth[right_titles[0]["title"]]
    assert first.paragraphs[0] in right_titles[0]["body"]
    assert "html" not in items[0]
