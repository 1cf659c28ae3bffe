"""``extract --warc --dask``: a real dask.distributed LocalCluster of 2 worker processes gives the
single-process output byte for byte; a file that fails is retried, reported, and the rest written."""

from __future__ import annotations

from newscrawl.cli import main


def test_dask_output_is_byte_identical_and_failures_are_reported(demo_warc, tmp_path, capsys):
    from dask.distributed import LocalCluster

    files = demo_warc["files"]
    single, spread, partial = tmp_path / "single.jsonl", tmp_path / "dask.jsonl", tmp_path / "partial.jsonl"
    assert main(["extract", "--warc", *files, "-o", str(single)]) == 0
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        assert len(cluster.workers) == 2
        assert main(["extract", "--warc", *files, "-o", str(spread), "--dask", cluster.scheduler_address]) == 0
        assert single.read_bytes() and spread.read_bytes() == single.read_bytes()
        capsys.readouterr()

        missing = str(tmp_path / "gone.warc.gz")
        assert main(["extract", "--warc", files[0], missing, *files[1:], "-o", str(partial),
                     "--dask", cluster.scheduler_address, "--retries", "1"]) == 1
    err = capsys.readouterr().err
    assert f"FAILED {missing}" in err and "cannot be read" in err
    assert partial.read_bytes() == single.read_bytes()  # every other file's lines, in order


def test_dask_without_address_starts_a_local_cluster(demo_warc, tmp_path):
    out = tmp_path / "local.jsonl"
    assert main(["extract", "--warc", demo_warc["files"][0], "-o", str(out), "--dask", "--workers", "1",
                 "--articles-only"]) == 0
    assert out.read_text().count("\n") >= 1
