"""URL (link-target) classifier against newspaper4k's and courlan's URL rules.

Precision / recall / F1 of the article class, per dataset, on the gold labelled URLs that
``newscrawl train urls`` uses (wcxb-dev, newspaper-urls). Our numbers are nested cross-validated
predictions (10 outer folds grouped by site, hyper-parameters re-chosen inside each; the training-only
rel-labelled links of a held-out fold's sites are left out too), never the shipped model scoring
its own training data. The peers are rules and need no training:

* newspaper4k ``newspaper.urls.valid_url`` (its ``tldextract`` is swapped for an offline instance);
* courlan ``check_url(url, strict=True)`` accepted = article, and the same with
  ``is_navigation_page(url)`` also counted as non-article.

A held-out row scores the saved site ``sites/wyofile`` (``_check/pages.tsv`` labels; pages given as
canonical ``https://wyofile.com/<path>/`` URLs) with the shipped model, which never saw it.

Run: ``.venv/bin/python benchmarks/url_classifier.py`` (needs ``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import socket
import sys
import time
import types
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from newscrawl.links.classifier import UrlClassifier
from newscrawl.links.features import FEATURE_NAMES
from newscrawl.paths import shared_dir
from newscrawl.train.urls import SEED_FEATURES, nested_cv_proba, prf, training_data


def _forbid_network() -> None:
    """Fail loudly if a peer tries to reach anything but 127.0.0.1 (e.g. a suffix-list download)."""
    original = socket.socket.connect

    def connect(self: socket.socket, address: object) -> None:
        host = address[0] if isinstance(address, tuple) else address
        if host not in ("127.0.0.1", "::1", "localhost") and self.family != socket.AF_UNIX:
            raise RuntimeError(f"benchmark tried to reach the network: {address!r}")
        return original(self, address)

    socket.socket.connect = connect  # type: ignore[method-assign]


def _peers() -> dict[str, Callable[[str], bool]]:
    try:
        import courlan
        import newspaper.urls as newspaper_urls
    except ImportError as exc:
        raise SystemExit(f"benchmark peers missing ({exc}); run: .venv/bin/pip install -e '.[bench]'") from None
    import tldextract

    # newspaper4k calls tldextract.extract(), whose default instance may download the suffix list
    newspaper_urls.tldextract = types.SimpleNamespace(extract=tldextract.TLDExtract(suffix_list_urls=()))

    def newspaper4k(url: str) -> bool:
        try:
            return bool(newspaper_urls.valid_url(url))
        except ValueError:
            return False

    def courlan_strict(url: str) -> bool:
        return courlan.check_url(url, strict=True) is not None

    def courlan_strict_nav(url: str) -> bool:
        return courlan_strict(url) and not courlan.is_navigation_page(url)

    return {
        "newspaper4k valid_url": newspaper4k,
        "courlan check_url(strict)": courlan_strict,
        "courlan strict + not is_navigation_page": courlan_strict_nav,
    }


def wyofile_pages(root: Path) -> list[tuple[str, bool]]:
    """(canonical URL, is article) for each page of the saved site; downloader files (``_*``) skipped."""
    pages = []
    with (root / "_check" / "pages.tsv").open(encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            path, kind = line.split("\t")[:2]
            if path.startswith("_"):
                continue
            path = path.removesuffix("index.html").replace("\ufe56", "?")
            pages.append((f"https://wyofile.com/{path}", kind == "article"))
    return pages


def _table(title: str, y: Sequence[bool], rows: dict[str, Sequence[bool]]) -> None:
    print(f"\n{title}: {len(y)} URLs, {sum(y)} articles")
    print(f"| {'method':48s} | precision | recall |   F1  |")
    print(f"|{'-' * 50}|-----------|--------|-------|")
    for name, pred in rows.items():
        p, r, f = prf(y, pred)
        print(f"| {name:48s} |   {p:.3f}   |  {r:.3f} | {f:.3f} |")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    _forbid_network()
    started = time.time()
    peers = _peers()
    shipped = UrlClassifier.load()
    family = shipped.model.meta.get("family", "tree")

    data = training_data()
    urls = [r.url for r in data.gold]
    X, y, groups, extra = data.X, data.y, data.groups, data.extra
    seed_cols = [FEATURE_NAMES.index(f) for f in SEED_FEATURES]
    seed_extra = (extra[0][:, seed_cols], extra[1], extra[2])
    ours = {
        f"newscrawl ({family}, nested CV)": nested_cv_proba(family, X, y, groups, args.seed, extra) >= 0.5,
        "newscrawl (tree, seed five features, nested CV)": nested_cv_proba(
            "tree", X[:, seed_cols], y, groups, args.seed, seed_extra
        )
        >= 0.5,
    }
    peer_pred = {name: np.asarray([fn(u) for u in urls]) for name, fn in peers.items()}
    datasets = [r.dataset for r in data.gold]
    for dataset in (*sorted(set(datasets)), "all"):
        mask = np.asarray([dataset in ("all", d) for d in datasets])
        table = {name: pred[mask] for name, pred in {**ours, **peer_pred}.items()}
        _table(f"{dataset} (labelled URLs)", y[mask], table)

    site = shared_dir() / "sites" / "wyofile"
    if (site / "_check" / "pages.tsv").is_file():
        pages = wyofile_pages(site)
        site_urls, site_y = [u for u, _ in pages], [a for _, a in pages]
        held_out = {"newscrawl (shipped model, never trained on it)": np.asarray(shipped.probabilities(site_urls)) >= 0.5}
        held_out.update({name: [fn(u) for u in site_urls] for name, fn in peers.items()})
        _table("held-out saved site wyofile (pages.tsv; reporting only)", site_y, held_out)
    else:
        print(f"\n(no saved site at {site}; held-out row skipped)")
    print(f"\nshipped model: {family} {shipped.model.meta.get('params')}; {time.time() - started:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
