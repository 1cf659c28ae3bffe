"""``newscrawl extract --warc``: the same lines as ``extract --batch`` on the same pages, filters,
``--workers``, ``-o``, failures reported, and the ``newscrawl.warc.iter_articles`` API."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from newscrawl.cli import main
from newscrawl.warc import iter_articles

FIELDS = ("title", "published", "modified", "authors", "language", "body", "is_article", "probability",
          "provenance", "warnings")


def _run(argv: list[str], capsys) -> tuple[int, list[dict], str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, [json.loads(line) for line in captured.out.splitlines() if line.strip()], captured.err


@pytest.fixture(scope="module")
def warc_lines(demo_warc) -> list[dict]:
    from newscrawl.commands.extract import dumps
    from newscrawl.warc.articles import Options, lines

    return [json.loads(dumps(line)) for line in lines(demo_warc["files"], Options())]


def test_same_fields_and_scores_as_batch(demo_warc, warc_lines, tmp_path, capsys):
    code, batch, _ = _run(["extract", "--batch", str(_manifest(demo_warc["pages"], tmp_path))], capsys)
    assert code == 0
    assert [line["url"] for line in warc_lines] == list(demo_warc["pages"])  # one line per HTML 200 page, in order
    assert sum(line["is_article"] for line in warc_lines) >= 10
    for mine, theirs in zip(warc_lines, batch, strict=True):
        assert {k: mine[k] for k in FIELDS} == {k: theirs[k] for k in FIELDS}, mine["url"]
        assert mine["warc"]["file"] in demo_warc["files"] and mine["warc"]["record_id"].startswith("<urn:uuid:")
        assert mine["status"] == 200 and mine["fetched_at"] == mine["warc"]["date"] and mine["domain"]


def test_cli_output_filters_and_workers(demo_warc, warc_lines, tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    code, stdout_lines, err = _run(["extract", "--warc", str(Path(demo_warc["files"][0]).parent / "*.warc.gz"),
                                    "-o", str(out), "--workers", "2"], capsys)
    assert code == 0 and stdout_lines == []
    assert [json.loads(line) for line in out.read_text().splitlines()] == warc_lines  # --workers: same, in order
    assert f"{len(warc_lines)} pages" in err and "not_200 2" in err  # the summary on standard error

    code, articles, _ = _run(["extract", "--warc", *demo_warc["files"], "--articles-only"], capsys)
    assert [a["url"] for a in articles] == [line["url"] for line in warc_lines if line["is_article"]]

    dated = sorted(line["published"][:10] for line in warc_lines if line["published"])
    since, until = dated[len(dated) // 4], dated[3 * len(dated) // 4]
    code, ranged, _ = _run(["extract", "--warc", *demo_warc["files"], "--since", since, "--until", until], capsys)
    assert ranged and [r["url"] for r in ranged] == [line["url"] for line in warc_lines
                                                    if line["published"] and since <= line["published"][:10] <= until]
    code, none, _ = _run(["extract", "--warc", *demo_warc["files"], "--domain", "elsewhere.example"], capsys)
    assert code == 0 and none == []
    code, some, _ = _run(["extract", "--warc", demo_warc["files"][0], "--domain", "example"], capsys)
    assert some and all(line["url"].startswith("http://demo.example/") for line in some)


def test_missing_file_is_reported_and_the_rest_goes_on(demo_warc, tmp_path, capsys):
    code, lines, err = _run(["extract", "--warc", str(tmp_path / "gone.warc.gz"), demo_warc["files"][0]], capsys)
    assert code == 1 and lines and "FAILED" in err and "gone.warc.gz" in err


def test_bad_date_and_missing_extra_messages(demo_warc, monkeypatch):
    with pytest.raises(SystemExit, match="YYYY-MM-DD"):
        main(["extract", "--warc", demo_warc["files"][0], "--since", "yesterday"])
    import builtins

    real_import = builtins.__import__

    def no_warcio(name, *args, **kwargs):
        if name.startswith("warcio"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_warcio)
    with pytest.raises(SystemExit, match=r"newscrawl\[warc\]"):
        main(["extract", "--warc", demo_warc["files"][0]])


def test_iter_articles_api(demo_warc, warc_lines):
    articles = list(iter_articles(demo_warc["files"][1]))
    expected = [line for line in warc_lines if line["is_article"] and line["warc"]["file"] == demo_warc["files"][1]]
    assert articles and [a["url"] for a in articles] == [e["url"] for e in expected]
    assert [a["title"] for a in articles] == [e["title"] for e in expected]
    assert all(isinstance(a["warc"]["offset"], int) for a in articles)


def _manifest(pages: dict[str, bytes], folder: Path) -> Path:
    manifest = folder / "manifest.jsonl"
    with manifest.open("w") as handle:
        for number, (url, html) in enumerate(pages.items()):
            (folder / f"{number}.html").write_bytes(html)
            handle.write(json.dumps({"id": str(number), "url": url, "path": f"{number}.html"}) + "\n")
    return manifest


def test_site_templates_as_batch_on_one_file(demo_pages, warc_tools, tmp_path, capsys):
    made = warc_tools.write_site_warc(tmp_path, demo_pages[:20])  # one file, one domain: one group, as the batch's
    assert len(made["files"]) == 1
    code, batch, _ = _run(["extract", "--batch", str(_manifest(made["pages"], tmp_path)), "--site-templates"], capsys)
    code, mine, _ = _run(["extract", "--warc", made["files"][0], "--site-templates"], capsys)
    assert code == 0 and len(mine) == len(batch) == 20
    assert sum("template" in line["provenance"] for line in mine) >= 10
    for m, b in zip(mine, batch, strict=True):
        assert {k: m[k] for k in FIELDS} == {k: b[k] for k in FIELDS}, m["url"]


def test_stdout_default(demo_warc, warc_lines):
    from newscrawl.cli import build_parser
    from newscrawl.commands import extract

    args = build_parser().parse_args(["extract", "--warc", demo_warc["files"][0]])
    buffer = io.StringIO()
    assert extract.run(args, buffer) == 0
    first = [line for line in warc_lines if line["warc"]["file"] == demo_warc["files"][0]]
    assert [json.loads(line)["url"] for line in buffer.getvalue().splitlines()] == [f["url"] for f in first]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_line_in_place_on_a_terminal_and_as_lines_otherwise():
    from newscrawl.warc.cli import ProgressLine
    from newscrawl.warc.reader import Counts

    counts = Counts(files=1, records=40, pages=20, articles=10)
    terminal, log = _Terminal(), io.StringIO()
    for stream in (terminal, log):
        progress = ProgressLine(counts, stream)
        progress.tick()
        progress.done([("x.warc.gz", "cannot be read")])
    assert terminal.getvalue().startswith("\r1 files, 40 records (") and "\x1b[K" in terminal.getvalue()
    assert log.getvalue().startswith("newscrawl extract: 1 files, 40 records (") and "\r" not in log.getvalue()
    assert "20 pages, 10 articles" in log.getvalue() and "FAILED x.warc.gz: cannot be read" in log.getvalue()
