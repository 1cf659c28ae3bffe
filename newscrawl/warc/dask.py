"""``extract --warc ... --dask [ADDRESS]``: one Dask task per WARC file, output as without Dask.

Each task runs the single-process path (:func:`newscrawl.warc.articles.lines`) over its file and
returns that file's JSON lines (zlib-compressed: a CC-NEWS file's lines are a few hundred MB of
text) with its counts; the client writes the files' lines in input order as their tasks finish,
so the output is byte for byte the single-process one. A task that raises (a file that cannot be
opened on the worker, a worker that died) is retried ``retries`` times by Dask, then reported.
Without an address a ``LocalCluster`` of ``workers`` processes (one thread each: extraction is
CPU-bound Python) runs on this machine.

Python recipe (the same on any cluster)::

    from dask.distributed import Client
    from newscrawl.warc.dask import file_lines
    client = Client("tcp://scheduler:8786")
    futures = client.map(file_lines, paths, retries=2)
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Iterator
from typing import Any

from newscrawl.warc.articles import Options

logger = logging.getLogger(__name__)


ARTICLES = Options(articles_only=True)


def file_lines(
    path: str, options: Options = ARTICLES, css_index: dict[str, Any] | None = None
) -> tuple[bytes, dict[str, int]]:
    """The JSON lines of one file (zlib-compressed UTF-8) and its counts; raises when the file
    cannot be opened, so Dask tries again. ``css_index``: with ``options.stylesheets``, the
    stylesheets of all the input files (:func:`newscrawl.warc.styles.stylesheet_index`)."""
    from newscrawl.jsonlines import dumps
    from newscrawl.warc.articles import lines
    from newscrawl.warc.reader import Counts

    counts = Counts()
    text = "".join(dumps(line) + "\n" for line in lines([path], options, counts=counts, css_index=css_index))
    if counts["unreadable_files"]:
        raise OSError(f"{path}: cannot be read on this worker")
    return zlib.compress(text.encode("utf-8"), 1), dict(counts)


def _client(address: str | None, workers: int) -> tuple[Any, Any]:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise SystemExit("newscrawl extract --dask needs dask.distributed: pip install 'newscrawl[dask]'") from None
    if address:
        return Client(address), None
    cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=True, dashboard_address=None)
    return Client(cluster), cluster


def run_on_dask(
    paths: list[str],
    options: Options,
    address: str | None,
    workers: int,
    counts: Any,
    failed: list[tuple[str, str]],
    *,
    retries: int = 2,
) -> Iterator[str]:
    """Text of each file's lines in input order; files whose task failed after ``retries`` tries go
    to ``failed`` as (path, reason)."""
    css_index = None
    if options.stylesheets:  # the sheets of a page may be in another file (a crawl rotates files)
        from newscrawl.warc.styles import stylesheet_index

        css_index = stylesheet_index(paths)
    client, cluster = _client(address, workers)
    try:
        index = client.scatter(css_index, broadcast=True) if css_index is not None else None
        futures = [
            client.submit(
                file_lines, path, options, index, key=f"newscrawl-warc-{number}-{path}", retries=retries, pure=False
            )
            for number, path in enumerate(paths)
        ]
        for path, future in zip(paths, futures):
            try:
                data, file_counts = future.result()
            except Exception as exc:  # after Dask's retries
                logger.error("%s failed after %d tries: %s: %s", path, retries + 1, exc.__class__.__name__, exc)
                failed.append((path, f"{exc.__class__.__name__}: {exc}"))
                counts["failed_files"] += 1
                continue
            finally:
                future.release()
            counts.update(file_counts)
            yield zlib.decompress(data).decode("utf-8")
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
