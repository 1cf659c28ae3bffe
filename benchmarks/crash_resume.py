"""Crash and resume: what a SIGKILL part-way through a JOBDIR crawl costs, with and without the
newscrawl journal (``newscrawl/journal.py``).

For each mode: crawl a generated site of --pages pages (every page exported, spider only), SIGKILL
the crawl once --kill-after items are written, resume with the same JOBDIR, then count pages lost
(never exported) and duplicates. Prints one table row per mode.

    .venv/bin/python benchmarks/crash_resume.py --pages 2000 --kill-after 600
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from newscrawl.demo.server import serve_site
from newscrawl.demo.site import build_large_site

REPO = Path(__file__).resolve().parents[1]
SETTINGS = ("NEWSCRAWL_HAND_OFF=all", "NEWSCRAWL_EXPORT_ALL=true", "NEWSCRAWL_EXTRACTION_ENABLED=false",
            "NEWSCRAWL_TEMPLATE_ENABLED=false", "NEWSCRAWL_MAX_PAGES_PER_DOMAIN=0", "LOG_LEVEL=INFO")


def command(base: str, out: Path, jobdir: Path, journal: bool, extra: list[str]) -> list[str]:
    cmd = [sys.executable, "-m", "newscrawl", "crawl", base + "/", "-o", str(out), "--local"]
    for s in (*SETTINGS, f"JOBDIR={jobdir}", f"NEWSCRAWL_JOURNAL_ENABLED={'true' if journal else 'false'}", *extra):
        cmd += ["-s", s]
    return cmd + ["-s", "FEEDS=" + json.dumps({str(out): {"format": "jsonlines", "overwrite": False}})]


def run_mode(site, journal: bool, kill_after: int, tmp: Path, extra: list[str]) -> dict[str, object]:
    out, jobdir = tmp / "items.jsonl", tmp / "job"
    with serve_site(site) as server:
        proc = subprocess.Popen(command(server.base_url, out, jobdir, journal, extra), cwd=REPO,
                                stdout=subprocess.DEVNULL, stderr=(tmp / "run1.log").open("wb"))
        while not (out.exists() and out.read_bytes().count(b"\n") >= kill_after):
            if proc.poll() is not None:
                raise SystemExit("crawl ended before the kill; use a larger --pages")
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        before = out.read_bytes().count(b"\n")
        started = time.monotonic()
        subprocess.run(command(server.base_url, out, jobdir, journal, extra), cwd=REPO, check=True,
                       stdout=subprocess.DEVNULL, stderr=(tmp / "run2.log").open("wb"))
        resume_seconds = time.monotonic() - started
    urls = []
    for line in out.read_text(encoding="utf-8").splitlines():
        try:
            urls.append(json.loads(line)["url"])
        except (json.JSONDecodeError, KeyError):
            pass
    counts = Counter(urls)
    paths = {"/" + u.split("//", 1)[1].split("/", 1)[1] for u in counts}
    lost = len(set(site.truth) - paths)
    return {"mode": "journal" if journal else "plain JOBDIR", "exported before kill": before,
            "exported after resume": len(urls) - before, "lost": lost,
            "duplicates": sum(n - 1 for n in counts.values()), "resume s": round(resume_seconds, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--kill-after", type=int, default=600)
    parser.add_argument("--modes", default="plain,journal")
    parser.add_argument("-s", dest="extra", action="append", default=[], help="extra NAME=VALUE settings")
    args = parser.parse_args()
    site = build_large_site(args.pages)
    rows = []
    for mode in args.modes.split(","):
        with tempfile.TemporaryDirectory(prefix=f"crash-{mode}-") as tmp:
            rows.append(run_mode(site, mode == "journal", args.kill_after, Path(tmp), args.extra))
        print(json.dumps(rows[-1]), flush=True)
    print(f"\n{args.pages}-page site, SIGKILL after {args.kill_after} items")
    header = list(rows[0])
    print(" | ".join(header))
    for row in rows:
        print(" | ".join(str(row[h]) for h in header))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
