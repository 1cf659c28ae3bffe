"""``newscrawl extract --batch --site-templates``: groups, order, template removal."""

from __future__ import annotations

import io
import json
from pathlib import Path

from newscrawl.cli import build_parser

from .test_detect import page


def test_site_templates_in_batch_mode(tmp_path: Path) -> None:
    lines = []
    for k in range(4):
        (tmp_path / f"a{k}.html").write_text(page("article", "x", 40 + k), encoding="utf-8")
        lines.append({"id": f"a{k}", "url": f"https://www.ledger.com/news/story-{k}/", "path": f"a{k}.html"})
    (tmp_path / "solo.html").write_text(page("article", "y", 99), encoding="utf-8")
    lines.insert(2, {"id": "solo", "url": "https://other.org/story/", "path": "solo.html"})
    lines.append({"id": "broken", "url": "https://www.ledger.com/x/", "path": "missing.html"})
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")

    def run(*extra: str) -> list[dict]:
        args = build_parser().parse_args(["extract", "--batch", str(manifest), *extra])
        out = io.StringIO()
        assert args._run(args, stdout=out) == 0
        return [json.loads(line) for line in out.getvalue().splitlines()]

    plain, templated = run(), run("--site-templates")
    assert [o["id"] for o in templated] == [line["id"] for line in lines]  # one line each, in order
    assert "error" in templated[-1]
    by_id = {o["id"]: o for o in templated}
    assert "template" not in by_id["solo"]["provenance"]  # alone on its site: no template
    for k in range(4):
        out = by_id[f"a{k}"]
        assert out["provenance"]["template"]["removed"] > 10
        assert f"a{k}" not in out["provenance"]["template"]["pages"] and len(out["provenance"]["template"]["pages"]) == 3
        assert out["body"] and f"{40 + k}-0" in out["body"]
        assert "Sign up for the morning email" not in out["body"]
    assert {o["id"]: o["title"] for o in plain} == {o["id"]: o["title"] for o in templated}
    # on worker processes: the same lines (the templates are learnt once and handed to each worker)
    assert run("--site-templates", "--workers", "2") == templated


def test_site_templates_honour_style_elements(tmp_path: Path) -> None:
    # a paragraph the page's own <style> hides, different on each page (not template text)
    hidden = "A second telling of story {}, laid out for narrow screens only, repeats its ending."
    lines = []
    for k in range(4):
        html = page("article", "x", 60 + k).replace("</head>", "<style>.narrow { display: none }</style></head>")
        html = html.replace("</div></article>", f'<p class="narrow">{hidden.format(k)}</p></div></article>')
        (tmp_path / f"a{k}.html").write_text(html, encoding="utf-8")
        lines.append({"id": f"a{k}", "url": f"https://www.ledger.com/news/story-{k}/", "path": f"a{k}.html"})
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")

    def bodies(*extra: str) -> list[str]:
        args = build_parser().parse_args(["extract", "--batch", str(manifest), "--site-templates", *extra])
        out = io.StringIO()
        assert args._run(args, stdout=out) == 0
        found = [json.loads(line) for line in out.getvalue().splitlines()]
        assert all(o["provenance"]["template"]["removed"] > 10 for o in found)
        return [o["body"] for o in found]

    assert all(hidden.format(k) in body for k, body in enumerate(bodies()))
    assert all(hidden.format(k) not in body and f"{60 + k}-0" in body
               for k, body in enumerate(bodies("--style-elements")))
