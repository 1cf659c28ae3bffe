"""``newscrawl extract`` (single and --batch) and ``newscrawl evaluate`` on generated files."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from newscrawl.cli import main

ARTICLE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title} | Example News</title>
<meta property="article:published_time" content="2021-03-04T10:00:00Z"></head>
<body><nav><a href="/">Home</a> <a href="/world">World</a></nav>
<article><h1>{title}</h1><p class="date">4 March 2021</p>
{paragraphs}</article><footer>© Example News</footer></body></html>"""


def article_html(title: str) -> str:
    sentence = f"The {title.lower()} story continues with careful reporting about the town council and its budget."
    paragraphs = "\n".join(f"<p>{sentence} Paragraph {i} adds detail number {i}.</p>" for i in range(8))
    return ARTICLE.format(title=title, paragraphs=paragraphs)


def write_manifest(tmp_path: Path) -> Path:
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "a.html").write_text(article_html("Alpha Report"), encoding="utf-8")
    (tmp_path / "pages" / "b.html.gz").write_bytes(gzip.compress(article_html("Beta Report").encode("utf-8")))
    (tmp_path / "pages" / "corrupt.html.gz").write_bytes(b"\x1f\x8b not really gzip")
    lines = [
        {"id": "a", "url": "https://ex.com/a", "path": "pages/a.html", "extra": 1},
        {"id": "missing", "url": "https://ex.com/m", "path": "pages/nope.html"},
        {"id": "b", "url": "https://ex.com/b", "path": "pages/b.html.gz"},
        {"id": "bad", "url": None, "path": "pages/corrupt.html.gz"},
    ]
    text = "\n".join(json.dumps(line) for line in lines) + "\nnot json\n"
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text(text, encoding="utf-8")
    return manifest


def test_batch_keeps_order_and_reports_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = write_manifest(tmp_path)
    assert main(["extract", "--batch", str(manifest)]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["id"] for o in out] == ["a", "missing", "b", "bad", None]
    for o in out:
        assert {"id", "url", "title", "published", "body", "is_article", "probability"} <= set(o)
    # the CLI adds id/url and otherwise passes the core's result through unchanged
    from newscrawl.extract import extract

    for o, name in ((out[0], "a.html"), (out[2], "b.html.gz")):
        assert "error" not in o
        data = (tmp_path / "pages" / name).read_bytes()
        if name.endswith(".gz"):
            data = gzip.decompress(data)
        expected = extract(data, o["url"]).to_dict()
        assert {k: o[k] for k in expected} == expected
        assert "town council" in o["body"]
    assert out[0]["url"] == "https://ex.com/a" and out[2]["url"] == "https://ex.com/b"
    assert "FileNotFoundError" in out[1]["error"] and out[1]["body"] is None
    assert out[3]["error"] and out[3]["title"] is None
    assert "line 5" in out[4]["error"]


def test_batch_on_worker_processes_writes_the_same_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = write_manifest(tmp_path)
    assert main(["extract", "--batch", str(manifest)]) == 0
    serial = capsys.readouterr().out
    assert main(["extract", "--batch", str(manifest), "--workers", "2"]) == 0
    assert capsys.readouterr().out == serial  # errors included, in input order
    with pytest.raises(SystemExit) as info:
        main(["extract", "--batch", str(manifest), "--workers", "-2"])
    assert "--workers" in str(info.value.code)


def test_a_reader_that_stops_early_ends_the_batch_quietly(tmp_path: Path) -> None:
    # `newscrawl extract --batch m.jsonl | head`: no traceback, the exit status of a broken pipe
    import subprocess
    import sys

    (tmp_path / "a.html").write_text(article_html("Alpha Report"), encoding="utf-8")
    manifest = tmp_path / "m.jsonl"
    manifest.write_text("".join(json.dumps({"id": i, "path": "a.html"}) + "\n" for i in range(400)), encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "newscrawl", "extract", "--batch", str(manifest)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    assert json.loads(process.stdout.readline())["id"] == 0
    process.stdout.close()  # more than a pipe buffer of lines is still to come
    error = process.stderr.read().decode()
    assert process.wait(timeout=300) == 141
    assert "Traceback" not in error and "BrokenPipe" not in error


def test_ctrl_c_stops_a_batch_on_workers_without_tracebacks(tmp_path: Path) -> None:
    # Ctrl-C signals the whole foreground process group: parent and workers
    import os
    import signal
    import subprocess
    import sys

    (tmp_path / "a.html").write_text(article_html("Alpha Report"), encoding="utf-8")
    manifest = tmp_path / "m.jsonl"
    manifest.write_text("".join(json.dumps({"id": i, "path": "a.html"}) + "\n" for i in range(20000)), encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "newscrawl", "extract", "--batch", str(manifest), "--workers", "2"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    assert process.stdout is not None and process.stderr is not None
    assert json.loads(process.stdout.readline())["id"] == 0  # the workers are running
    os.killpg(process.pid, signal.SIGINT)
    process.stdout.read()
    error = process.stderr.read().decode()
    assert process.wait(timeout=120) == 130
    assert "interrupted" in error and "Traceback" not in error


def test_batch_reads_the_manifest_from_standard_input(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    manifest = write_manifest(tmp_path)
    assert main(["extract", "--batch", str(manifest)]) == 0
    from_file = capsys.readouterr().out
    monkeypatch.chdir(tmp_path)  # paths are relative to the current folder
    monkeypatch.setattr("sys.stdin", io.StringIO(manifest.read_text(encoding="utf-8")))
    assert main(["extract", "--batch", "-"]) == 0
    assert capsys.readouterr().out == from_file
    with pytest.raises(SystemExit) as info:  # templates need a first pass over the manifest
        main(["extract", "--batch", "-", "--site-templates"])
    assert "file" in str(info.value.code)


def test_workers_that_cannot_run_end_the_command_with_a_message(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    import newscrawl.commands.extract as command
    from newscrawl.parallel import WorkersCannotRun

    def run(args, stdout=None):
        raise WorkersCannotRun("worker processes died on 8 items in a row")

    monkeypatch.setattr(command, "run", run)
    assert main(["extract", "--batch", "m.jsonl", "--workers", "2"]) == 1
    assert "died on 8 items in a row" in capsys.readouterr().err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_page_over_the_time_limit_gets_an_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       workers: str) -> None:
    manifest = write_manifest(tmp_path)
    # 0.1 ms: far under what any page takes (the fixed cost alone is a few ms)
    assert main(["extract", "--batch", str(manifest), "--workers", workers, "--page-timeout", "0.0001"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["id"] for o in out] == ["a", "missing", "b", "bad", None]
    assert "TimeLimitExceeded" in out[0]["error"] and out[0]["body"] is None
    assert "TimeLimitExceeded" in out[2]["error"]
    assert "FileNotFoundError" in out[1]["error"]  # the other errors are as before


def test_single_file_prints_one_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "page.html.gz"
    path.write_bytes(gzip.compress(article_html("Gamma Report").encode("utf-8")))
    assert main(["extract", str(path), "--url", "https://ex.com/g"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["published"].startswith("2021-03-04")
    assert "town council" in result["body"]
    assert "provenance" in result


def test_unknown_method_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_text(article_html("Delta"), encoding="utf-8")
    with pytest.raises(SystemExit) as info:
        main(["extract", str(path), "--method", "no-such-method"])
    assert "no-such-method" in str(info.value.code)


def test_file_and_batch_are_exclusive(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        main(["extract"])
    with pytest.raises(SystemExit) as info:
        main(["extract", str(tmp_path / "missing.html")])
    assert "cannot read" in str(info.value.code)
    (tmp_path / "cut.html.gz").write_bytes(gzip.compress(b"<html><body><p>text</p></body></html>")[:20])
    with pytest.raises(SystemExit) as info:  # a truncated gzip (EOFError) is reported the same way
        main(["extract", str(tmp_path / "cut.html.gz")])
    assert "cannot read" in str(info.value.code)


def test_evaluate_json_on_generated_dataset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pages").mkdir()
    rows = []
    for i, title in enumerate(["Alpha Report", "Beta Report"]):
        path = f"pages/{i}.html.gz"
        (tmp_path / path).write_bytes(gzip.compress(article_html(title).encode("utf-8")))
        rows.append({"id": str(i), "path": path, "url": f"https://ex.com/{i}", "title": title,
                     "published": "2021-03-04", "with": ["town council"], "without": ["© Example News"]})
    (tmp_path / "truth.jsonl").write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    assert main(["evaluate", str(tmp_path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["pages"] == 2
    assert result["errors"] == 0
    assert result["title"]["pages"] == 2
    assert result["published"]["accuracy"] == 1.0
    assert result["snippets"]["tp"] == 2 and result["snippets"]["fp"] == 0
    assert result["pages_per_second"] > 0
    assert main(["evaluate", str(tmp_path), "--json", "--workers", "2"]) == 0
    pooled = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in pooled.items() if k != "pages_per_second"} == \
        {k: v for k, v in result.items() if k != "pages_per_second"}
    assert main(["evaluate", str(tmp_path), "--limit", "1"]) == 0
    table = capsys.readouterr().out
    assert "body F1" in table and tmp_path.name[:10] in table


def test_evaluate_reports_a_corrupt_truth_line_and_scores_unreadable_pages_as_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pages").mkdir()
    good = gzip.compress(article_html("Alpha Report").encode("utf-8"))
    (tmp_path / "pages/good.html.gz").write_bytes(good)
    (tmp_path / "pages/cut.html.gz").write_bytes(good[:20])  # truncated gzip: EOFError
    rows = [{"id": "good", "path": "pages/good.html.gz", "title": "Alpha Report"},
            {"id": "cut", "path": "pages/cut.html.gz", "title": "Beta"},
            {"id": "gone", "path": "pages/gone.html.gz", "title": "Gamma"}]
    truth = tmp_path / "truth.jsonl"
    truth.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    assert main(["evaluate", str(tmp_path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["pages"] == 3 and result["errors"] == 2 and result["title"]["correct"] == 1
    truth.write_text(truth.read_text(encoding="utf-8") + "not json\n", encoding="utf-8")
    with pytest.raises(SystemExit) as info:
        main(["evaluate", str(tmp_path)])
    assert f"{truth} line 4: not JSON" in str(info.value.code)


def test_evaluate_scores_prediction_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "truth.jsonl").write_text(json.dumps({"id": "x", "path": "p.html", "title": "T", "body": "a b c d"}),
                                          encoding="utf-8")
    preds = tmp_path / "preds.jsonl"
    preds.write_text(json.dumps({"id": "x", "title": "t", "body": "a b c d"}) + "\n", encoding="utf-8")
    details = tmp_path / "details.jsonl"
    assert main(["evaluate", str(tmp_path), "--json", "--predictions", str(preds), "--details", str(details)]) == 0
    assert json.loads(details.read_text(encoding="utf-8"))["title_ok"] is True
    result = json.loads(capsys.readouterr().out)
    assert result["title"]["accuracy"] == 1.0 and result["body"]["f1"] == 1.0
    preds.write_text("[1, 2]\n", encoding="utf-8")
    with pytest.raises(SystemExit) as info:
        main(["evaluate", str(tmp_path), "--predictions", str(preds)])
    assert f"{preds} line 1: not a JSON object" in str(info.value.code)


def test_json_output_survives_numpy_and_sets() -> None:
    import numpy as np

    from newscrawl.commands.extract import dumps

    out = json.loads(dumps({"p": np.float32(0.5), "ok": np.bool_(True), "types": {"b", "a"}, "n": np.int64(3)}))
    assert out == {"p": 0.5, "ok": True, "types": ["a", "b"], "n": 3}


@pytest.mark.parametrize("target", ["urls", "title-date", "page", "wang"])
def test_train_without_datasets_says_where_it_looked(target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, each target failed deep in its data loading (FileNotFoundError) or in scikit-learn
    ("n_samples=0") with a traceback; models/ is left untouched."""
    monkeypatch.setenv("NEWSCRAWL_SHARED_DIR", str(tmp_path))
    with pytest.raises(SystemExit) as info:
        main(["train", target])
    assert f"no datasets in {tmp_path / 'datasets'}" in str(info.value.code)


HIDDEN_LINE = "A second version of the closing paragraph, written for narrow screens, says the same."


def _page_hiding_a_line_by_style_element() -> str:
    page = article_html("Gamma Report").replace("</head>", "<style>.narrow { display: none }</style></head>")
    return page.replace("</article>", f'<p class="narrow">{HIDDEN_LINE}</p></article>')


def test_style_elements_flag_on_extract_batch_and_evaluate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a page given alone is styled without its <style> elements unless --style-elements asks for them
    (tmp_path / "pages").mkdir()
    page = tmp_path / "pages" / "g.html"
    page.write_text(_page_hiding_a_line_by_style_element(), encoding="utf-8")
    bodies = {}
    for flag in ([], ["--style-elements"]):
        assert main(["extract", str(page), *flag]) == 0
        bodies[bool(flag)] = json.loads(capsys.readouterr().out)["body"]
    assert HIDDEN_LINE in bodies[False] and HIDDEN_LINE not in bodies[True]
    assert "town council" in bodies[True]
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text(json.dumps({"id": "g", "url": "https://ex.com/g", "path": "pages/g.html"}) + "\n",
                        encoding="utf-8")
    for workers in ("1", "2"):
        assert main(["extract", "--batch", str(manifest), "--style-elements", "--workers", workers]) == 0
        assert HIDDEN_LINE not in json.loads(capsys.readouterr().out)["body"]
    truth = {"id": "g", "path": "pages/g.html", "url": "https://ex.com/g", "with": ["town council"],
             "without": [HIDDEN_LINE]}
    (tmp_path / "truth.jsonl").write_text(json.dumps(truth), encoding="utf-8")
    fp = {}
    for flag in ([], ["--style-elements"]):
        assert main(["evaluate", str(tmp_path), "--json", *flag]) == 0
        fp[bool(flag)] = json.loads(capsys.readouterr().out)["snippets"]["fp"]
    assert fp == {False: 1, True: 0}


def test_a_command_imports_only_its_own_module() -> None:
    """The parser for one command imports that command alone (building them all cost every crawl
    0.4 s, the training targets importing the extractor); the full help still lists every command."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from newscrawl.cli import build_parser\n"
        "args = build_parser(['crawl', 'http://127.0.0.1/', '-o', 'x.jsonl']).parse_args(['crawl', 'http://127.0.0.1/', '-o', 'x.jsonl'])\n"
        "assert args._run.__module__ == 'newscrawl.commands.crawl', args._run\n"
        "print(sorted(m for m in sys.modules if m.startswith(('newscrawl.commands.', 'newscrawl.train'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['newscrawl.commands.crawl']", out.stdout + out.stderr
    helps = subprocess.run([sys.executable, "-m", "newscrawl", "--help"], capture_output=True, text=True, check=True)
    from newscrawl.cli import COMMANDS

    assert all(name in helps.stdout for name in COMMANDS)
    targets = subprocess.run([sys.executable, "-m", "newscrawl", "train", "page", "--help"], capture_output=True,
                             text=True, check=True)
    assert "usage: newscrawl train page" in targets.stdout
