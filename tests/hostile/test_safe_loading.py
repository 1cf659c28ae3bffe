"""Models and caches load without executing code; a tampered model stops the crawl at its start
with a clear error."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier

from newscrawl.demo.server import serve_site
from newscrawl.demo.site import build_demo_site
from newscrawl.links.features import FEATURE_NAMES
from newscrawl.modelio import export_trees, save_model
from newscrawl.template.cache import TemplateCache

REPO = Path(__file__).resolve().parents[2]


class _Exploit:
    """Unpickling this creates ``marker``: proof that code ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def url_model(path: Path) -> Path:
    rng = np.random.default_rng(0)
    X = rng.random((200, len(FEATURE_NAMES)))
    y = X[:, 0] > 0.5
    tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    save_model(export_trees(tree, FEATURE_NAMES, {"target": "is_article", "positive": True}), path)
    return path


def crawl_with_model(model: Path, tmp: Path) -> tuple[subprocess.CompletedProcess, dict, dict]:
    with serve_site(build_demo_site()) as server:
        stats = tmp / "stats.json"
        cmd = [sys.executable, "-m", "newscrawl", "crawl", server.base_url + "/", "-o", str(tmp / "out.jsonl"),
               "--stats", str(stats), "--local", "-s", f"NEWSCRAWL_URL_MODEL={model}", "-s", "TELNETCONSOLE_ENABLED=false"]
        proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=180, check=False)
        hits = dict(server.hits)
    return proc, json.loads(stats.read_text()) if stats.exists() else {}, hits


@pytest.mark.parametrize("attack", ["tampered", "pickle"])
def test_bad_model_stops_the_crawl_at_start(tmp_path, attack):
    model = url_model(tmp_path / "url_classifier.json")
    marker = tmp_path / "pwned"
    if attack == "tampered":
        body = json.loads(model.read_text())
        body["trees"][0]["threshold"][0] += 0.25  # a changed split, checksum left as it was
        model.write_text(json.dumps(body))
        expected = "fails its checksum"
    else:
        model.write_bytes(pickle.dumps(_Exploit(marker)))
        expected = "is not valid JSON"
    proc, stats, hits = crawl_with_model(model, tmp_path)
    log = proc.stderr + proc.stdout
    assert "URL model refused" in log and expected in log, log[-3000:]
    assert stats.get("finish_reason") == "url_model_refused"
    assert not marker.exists()
    assert not any(t.endswith("/") for t in hits), hits  # no page was fetched


def test_template_cache_never_unpickles(tmp_path):
    cache = TemplateCache(directory=tmp_path)
    marker = tmp_path / "pwned"
    cache._file("example.com").write_bytes(pickle.dumps(_Exploit(marker)))
    assert cache.get("example.com") is None
    assert not marker.exists()
