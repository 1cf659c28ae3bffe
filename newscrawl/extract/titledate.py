"""Title and date detection (seed 000 §3.4.2) and their post-processing (§3.4.3).

Two tree ensembles from ``models/`` (title_model.json, date_model.json via newscrawl.modelio)
score the text nodes of the evaluated subset: the title first, then the date with the signed
distance to the detected title as a feature. Post-processing keeps one title (the first
detected, else ``<title>`` without the site name) and the date cluster nearest the title.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from newscrawl.extract.features import (
    DATE_FEATURES, TITLE_FEATURES, columns, node_features, with_title_distance)
from newscrawl.extract.nce import INLINE
from newscrawl.modelio import ModelError, TreeModel, load_model
from newscrawl.page import Page, collapse
from newscrawl.paths import models_dir

THRESHOLD = 0.5  # class probability for "is title" / "is date"
CLUSTER_GAP = 3  # date nodes at most two text nodes apart (index difference <= 3) share a cluster
MAX_DATE_LEN = 80  # longer detected "date" nodes add text, not a date (dropped, §3.4.3)
_SITE_SEP = re.compile(r"\s+[|\u2013\u2014\-:\u00b7\u2022\u00bb/]+\s+")


@functools.lru_cache(maxsize=4)
def load(name: str) -> TreeModel | None:
    """The shipped model ``name`` (title_model/date_model), or None when it is not there."""
    try:
        return load_model(models_dir() / f"{name}.json")
    except ModelError:
        return None


def block_of(el: Any) -> Any:
    """Nearest ancestor-or-self that is not an inline element (the paragraph a text run sits in)."""
    node = el
    while node is not None and isinstance(node.tag, str) and node.tag in INLINE:
        parent = node.getparent()
        if parent is None:
            break
        node = parent
    return node if node is not None else el


def node_title_text(page: Page, k: int) -> str:
    """A title node's full text: its block's text when the block is short (inline markup split
    the headline), else the text run alone."""
    tn = page.text_nodes[k]
    block = block_of(tn.container)
    if page.has(block) and page.text_len(block) <= 3 * len(tn.text) + 20:
        return page.text(block)
    return tn.text


def strip_site_name(title: str) -> str:
    """``<title>`` without the site name: the longest part between separators like ' | ' ' - '."""
    parts = [p.strip() for p in _SITE_SEP.split(title) if p.strip()]
    if len(parts) < 2:
        return title.strip()
    return max(parts, key=len)


@dataclass
class TitleDate:
    title: str | None
    title_node: int | None  # text-node index
    title_score: float
    date_text: str | None  # the visible date text (joined cluster)
    published: str | None
    date_nodes: list[int]
    date_score: float


def detect(page: Page, nodes: list[int]) -> TitleDate:
    """Classify title then date over ``nodes`` (the evaluated subset, text-node indices)."""
    if not nodes:
        fallback = strip_site_name(page.title_text) or None
        return TitleDate(fallback, None, 0.0, None, None, [], 0.0)
    X = node_features(page, nodes)
    title_model = load("title_model")
    if title_model is not None:
        p_title = title_model.positive_proba(columns(X, TITLE_FEATURES))
    else:  # before training: closest to <title> among non-trivial nodes
        edit = X[:, TITLE_FEATURES.index("title_edit")]
        p_title = np.where((edit < 0.8) & (X[:, 0] >= 8), 1.0 - edit, 0.0)
    title_node, title, title_score = None, None, 0.0
    hits = np.flatnonzero(p_title >= THRESHOLD)
    if hits.size:
        row = int(hits[0]) if title_model is not None else int(np.argmax(p_title))
        title_node = nodes[row]
        title = node_title_text(page, title_node)
        title_score = float(p_title[row])
    if not title:
        title = strip_site_name(page.title_text) or None

    Xd = columns(with_title_distance(X, nodes, title_node), DATE_FEATURES)
    date_model = load("date_model")
    if date_model is not None:
        p_date = date_model.positive_proba(Xd)
    else:  # before training: short nodes with digits near the title
        dist = np.abs(Xd[:, DATE_FEATURES.index("title_distance")])
        p_date = np.where((X[:, 1] >= 2) & (X[:, 0] <= 60) & (dist <= 15), 1.0, 0.0)
    date_rows = [r for r in np.flatnonzero(p_date >= THRESHOLD) if X[r, 0] <= MAX_DATE_LEN]
    cluster = _nearest_cluster([nodes[r] for r in date_rows], title_node)
    score_of = {nodes[r]: float(p_date[r]) for r in date_rows}
    date_text, published = _read_date(page, cluster)
    date_score = max((score_of[k] for k in cluster), default=0.0)
    return TitleDate(title, title_node, title_score, date_text, published, cluster, date_score)


def _nearest_cluster(found: list[int], title_node: int | None) -> list[int]:
    if not found:
        return []
    if title_node is None:  # §3.4.3: no clustering without a detected title
        return found
    clusters: list[list[int]] = [[found[0]]]
    for k in found[1:]:
        if k - clusters[-1][-1] <= CLUSTER_GAP:
            clusters[-1].append(k)
        else:
            clusters.append([k])
    return min(clusters, key=lambda c: (min(abs(k - title_node) for k in c), c[0]))


def _read_date(page: Page, cluster: list[int]) -> tuple[str | None, str | None]:
    """The ISO date of a date cluster: its joined text first (dates split over nodes), then each node."""
    if not cluster:
        return None, None
    from newscrawl.extract.dates import parse_date

    joined = collapse(" ".join(page.text_nodes[k].text for k in range(cluster[0], cluster[-1] + 1)))
    for text in [joined] + [page.text_nodes[k].text for k in cluster]:
        value = parse_date(text)
        if value:
            return text, value
    return joined, None
