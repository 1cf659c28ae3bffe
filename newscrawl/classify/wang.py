"""Wang et al. (KDD 2009; seed 001 §4.2): title and body nodes from rendered geometry, by RBF SVMs.

The "full rendering" end of the seeds' comparison. The page is rendered by headless Chromium
(Debian ``chromium``, driven over the DevTools protocol with ``websocket-client``) at 1366×768
with scripts disabled; for every element we read its box, its own text and font size. Screens
are 768 px tall: body features are normalised over the first two screens, title features over
the first. Body features: share of the formatting elements and of the formatted text of the
first two screens that the node holds, its share of their area and text. Title features: box
shape, signed vertical distance from the title's bottom to the body's top and horizontal overlap
with the body (both over the screen size, as seed 001 reads them), no final full stop, word
count, and font size relative to the largest in the first screen (our addition). Two SVMs with
RBF kernels score the candidates; the best-scoring body, then the best title for it, win.

Optional extra: ``python -m newscrawl.browser setup`` installs chromium and
websocket-client (the driver is :mod:`newscrawl.browser`); ``python -m newscrawl.train.wang`` trains
``models/wang_svm.json``. The test suite never needs a browser.
"""

from __future__ import annotations

import atexit
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from newscrawl.browser import VIEWPORT, Chromium
from newscrawl.classify import BodyResult
from newscrawl.modelio import ModelError, read_checked, write_checked
from newscrawl.page import Page
from newscrawl.paths import models_dir

WIDTH, HEIGHT = VIEWPORT
MODEL_FILE = "wang_svm.json"
FORMAT = "newscrawl-svm/1"
FORMATTING = frozenset({"p", "br", "b", "strong", "i", "em", "u", "font", "blockquote", "sup", "sub", "small", "mark"})
MIN_BODY_CHARS = 50
MAX_TITLE_WORDS = 40
BODY_FEATURES = ("fmt_share", "fmt_text_share", "area_share", "text_share", "width", "top")
TITLE_FEATURES = ("width", "height", "aspect", "v_distance", "h_overlap", "no_full_stop", "words", "font_ratio", "top")
_SENTENCE_END = re.compile(r"[.!?。]$")

# One pass over the rendered DOM: per element its parent, tag, absolute box, own text, font size.
_COLLECT = """(() => {
  const els = Array.from(document.body ? document.body.querySelectorAll('*') : []);
  els.unshift(document.body);
  const index = new Map(els.map((e, i) => [e, i]));
  const sy = window.scrollY, sx = window.scrollX;
  return JSON.stringify(els.map(e => {
    const r = e.getBoundingClientRect();
    const cs = getComputedStyle(e);
    let own = '';
    for (const n of e.childNodes) if (n.nodeType === 3) own += n.nodeValue;
    const shown = cs.display !== 'none' && cs.visibility !== 'hidden';
    return [index.has(e.parentElement) ? index.get(e.parentElement) : -1, e.tagName.toLowerCase(),
            r.left + sx, r.top + sy, r.width, r.height, shown ? own.replace(/\\s+/g, ' ').trim() : '',
            parseFloat(cs.fontSize) || 0];
  }));
})()"""


# --- browser ---------------------------------------------------------------------------------------
class Browser(Chromium):
    """The shared Chromium driver plus what Wang's features read: rendered rows, an element's innerText."""

    def render(self, html: str) -> list[list[Any]]:
        """Load ``html`` into the tab and return the per-element rows of ``_COLLECT``."""
        self.send("Page.navigate", url="about:blank")
        self.send("Page.setDocumentContent", frameId=self.frame, html=html)
        return json.loads(self.evaluate(_COLLECT) or "[]")

    def inner_text(self, index: int) -> str:
        expr = (
            "(() => { const els = Array.from(document.body.querySelectorAll('*')); els.unshift(document.body);"
            f" return els[{int(index)}] ? els[{int(index)}].innerText : ''; }})()"
        )
        return self.evaluate(expr) or ""


_browser: Browser | None = None


def browser() -> Browser:
    """The process's shared browser, started on first use and closed at exit."""
    global _browser
    if _browser is None:
        _browser = Browser()
        atexit.register(_browser.close)
    return _browser


def page_html(page: Page) -> str:
    """The Page's cleaned tree as HTML, with its ``<style>`` texts put back (Page keeps them aside)."""
    import lxml.html

    css = "".join(f"<style>{text}</style>" for text in page.css_texts)
    html = lxml.html.tostring(page.root, encoding="unicode")
    return html.replace("<head>", "<head>" + css, 1) if "<head>" in html else css + html


# --- geometry and features -------------------------------------------------------------------------
@dataclass
class Node:
    index: int
    parent: int
    tag: str
    left: float
    top: float
    width: float
    height: float
    own_text: str
    font_size: float
    text: int = 0  # characters in the subtree (nodes starting in the first two screens)
    fmt: int = 0  # formatting elements in the subtree (itself included; same screens)
    fmt_text: int = 0  # characters inside formatting elements in the subtree
    end: int = 0  # index of the last descendant (the subtree is nodes[index : end + 1])


def layout(rows: list[list[Any]]) -> list[Node]:
    """Nodes with subtree counts over the first two screens (rows are in document order, parents first)."""
    nodes = [
        Node(i, int(r[0]), str(r[1]), float(r[2]), float(r[3]), float(r[4]), float(r[5]), str(r[6]), float(r[7]))
        for i, r in enumerate(rows)
    ]
    inside_fmt = [False] * len(nodes)
    for n in nodes:
        n.end = n.index
        parent_fmt = inside_fmt[n.parent] if 0 <= n.parent < n.index else False
        inside_fmt[n.index] = parent_fmt or n.tag in FORMATTING
        if n.top < 2.0 * HEIGHT:
            n.text = len(n.own_text)
            n.fmt = int(n.tag in FORMATTING)
            n.fmt_text = n.text if inside_fmt[n.index] else 0
    for n in reversed(nodes):
        if 0 <= n.parent < n.index:
            p = nodes[n.parent]
            p.text += n.text
            p.fmt += n.fmt
            p.fmt_text += n.fmt_text
            p.end = max(p.end, n.end)
    return nodes


def _visible_area(n: Node, limit: float) -> float:
    top, bottom = max(n.top, 0.0), min(n.top + n.height, limit)
    left, right = max(n.left, 0.0), min(n.left + n.width, float(WIDTH))
    return max(0.0, bottom - top) * max(0.0, right - left)


def body_candidates(nodes: list[Node]) -> tuple[list[Node], np.ndarray]:
    """Nodes starting in the first two screens with some text, and their body features."""
    limit = 2.0 * HEIGHT
    if not nodes:
        return [], np.zeros((0, len(BODY_FEATURES)))
    root = nodes[0]  # <body>: its counts are the page's totals over the first two screens
    own_fmt, fmt_text, text = root.fmt or 1, root.fmt_text or 1, root.text or 1
    cands = [n for n in nodes if n.top < limit and n.width > 0 and n.height > 0 and n.text >= MIN_BODY_CHARS]
    feats = [
        [
            n.fmt / own_fmt,
            n.fmt_text / fmt_text,
            _visible_area(n, limit) / (WIDTH * limit),
            n.text / text,
            n.width / WIDTH,
            n.top / HEIGHT,
        ]
        for n in cands
    ]
    return cands, np.asarray(feats, dtype=np.float64).reshape(-1, len(BODY_FEATURES))


def title_candidates(nodes: list[Node], body: Node) -> tuple[list[Node], np.ndarray]:
    """Nodes with their own text in the first screen, and their title features relative to ``body``."""
    first = [n for n in nodes if n.own_text and n.top < HEIGHT and n.width > 0 and n.height > 0]
    largest = max((n.font_size for n in first), default=0.0) or 1.0
    cands, feats = [], []
    for n in first:
        words = len(n.own_text.split())
        if words > MAX_TITLE_WORDS:
            continue
        overlap = max(0.0, min(n.left + n.width, body.left + body.width) - max(n.left, body.left))
        cands.append(n)
        feats.append(
            [
                n.width / WIDTH,
                n.height / HEIGHT,
                n.width / max(n.height, 1.0),
                (body.top - (n.top + n.height)) / HEIGHT,
                overlap / WIDTH,
                float(not _SENTENCE_END.search(n.own_text)),
                float(words),
                n.font_size / largest,
                n.top / HEIGHT,
            ]
        )
    return cands, np.asarray(feats, dtype=np.float64).reshape(-1, len(TITLE_FEATURES))


# --- the SVM in a safe format ---------------------------------------------------------------------
@dataclass(frozen=True)
class RBFSVM:
    """decision(x) = Σ dual_i · exp(-gamma·|sv_i - z|²) + intercept, z = (x - mean) / scale."""

    mean: np.ndarray
    scale: np.ndarray
    support: np.ndarray
    dual: np.ndarray
    intercept: float
    gamma: float

    def decision(self, X: np.ndarray) -> np.ndarray:
        z = (np.asarray(X, dtype=np.float64) - self.mean) / self.scale
        d2 = ((z[:, None, :] - self.support[None, :, :]) ** 2).sum(axis=2)
        return np.exp(-self.gamma * d2) @ self.dual + self.intercept


def export_svm(scaler: Any, svc: Any) -> dict[str, Any]:
    """A fitted StandardScaler + binary SVC(kernel="rbf") as plain arrays."""
    return {
        "mean": scaler.mean_.tolist(),
        "scale": scaler.scale_.tolist(),
        "support": svc.support_vectors_.tolist(),
        "dual": svc.dual_coef_[0].tolist(),
        "intercept": float(svc.intercept_[0]),
        "gamma": float(svc._gamma),
    }


def save_models(body: dict[str, Any], title: dict[str, Any], meta: dict[str, Any], path: Path) -> None:
    write_checked({"format": FORMAT, "body": body, "title": title, "meta": meta}, path)


def _svm(raw: Any, n_features: int) -> RBFSVM:
    try:
        mean = np.asarray(raw["mean"], dtype=np.float64)
        scale = np.asarray(raw["scale"], dtype=np.float64)
        support = np.asarray(raw["support"], dtype=np.float64)
        dual = np.asarray(raw["dual"], dtype=np.float64)
        intercept, gamma = float(raw["intercept"]), float(raw["gamma"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"svm arrays malformed: {exc}") from None
    if mean.shape != (n_features,) or scale.shape != (n_features,) or (scale <= 0).any():
        raise ModelError("svm scaler does not fit the features")
    if (
        support.ndim != 2
        or support.shape[1] != n_features
        or dual.shape != (support.shape[0],)
        or not 0 < len(dual) <= 100_000
    ):
        raise ModelError("svm support vectors malformed")
    if (
        not all(np.isfinite(a).all() for a in (mean, scale, support, dual))
        or not np.isfinite([intercept, gamma]).all()
        or gamma <= 0
    ):
        raise ModelError("svm values are not finite")
    return RBFSVM(mean, scale, support, dual, intercept, gamma)


def load_models(path: Path | None = None) -> tuple[RBFSVM, RBFSVM, dict[str, Any]]:
    """(body SVM, title SVM, meta) from a file written by :func:`save_models`; never executes code."""
    payload = read_checked(path or models_dir() / MODEL_FILE, FORMAT)
    return (
        _svm(payload.get("body"), len(BODY_FEATURES)),
        _svm(payload.get("title"), len(TITLE_FEATURES)),
        payload.get("meta") or {},
    )


_models: tuple[RBFSVM, RBFSVM, dict[str, Any]] | None = None


@dataclass
class WangResult:
    body_node: Node | None
    title_node: Node | None
    body: str | None
    title: str | None
    score: float


def wang(page: Page, models: tuple[Any, ...] | None = None) -> WangResult:
    """Render the page, score body then title candidates, and read the winners' text."""
    global _models
    if models is None:
        if _models is None:
            _models = load_models()
        models = _models
    body_svm, title_svm = models[0], models[1]
    tab = browser()
    nodes = layout(tab.render(page_html(page)))
    cands, X = body_candidates(nodes)
    if not cands:
        return WangResult(None, None, None, None, 0.0)
    scores = body_svm.decision(X)
    best = int(np.argmax(scores))
    body = cands[best]
    tcands, T = title_candidates(nodes, body)
    title = None
    if tcands:
        title = tcands[int(np.argmax(title_svm.decision(T)))]
    text = "\n".join(line.strip() for line in tab.inner_text(body.index).split("\n") if line.strip())
    return WangResult(body, title, text or None, title.own_text if title else None, float(scores[best]))


def extract(page: Page) -> BodyResult:
    """Registry entry (``method="wang"``): the body node's text and the title node's text."""
    result = wang(page)
    return BodyResult(result.body, result.score, result.title)
