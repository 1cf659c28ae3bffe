"""IJS NewsFeed "DOM" heuristic (Trampuš & Novak; seed 004, Algorithm 2.1) and its title rule.

After ignoring elements that are clearly not the article (scripts, figures, asides, hidden
elements, navigation-like ids and classes), the body is the itemprop=articleBody element if
there is one; otherwise the content-bearing paragraphs (CBP) of the first element whose direct
CBP children hold more than CΣ characters and more than twice the best found so far; otherwise
the first ``<div>``/``<td>`` with enough text per link or image; otherwise ``None`` — saying
"no convincing content" is a feature of this method.

Reading of CT (docs/decisions.md): "≤ CT nested tags per cleartext character" is read as at most
one nested tag per CT characters (``tags · CT ≤ chars``), which is what the div/td fallback's
``textLength > CT·b`` says about links and images; the literal reading (≤ 30 tags per
character) would accept every paragraph.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from lxml import etree

from newscrawl.classify import BodyResult
from newscrawl.page import Page

CP = 40
CT = 30
C_SIGMA = 350
# Clean-up: "certain HTML5 elements like <figure> and <aside>" plus navigation and forms; Page has
# already dropped scripts, styles and comments. Hidden elements and navigation-like id/class names
# use Page's shared tests (is_hidden, is_boilerplate); html/body/main/article are never dropped.
REMOVED_TAGS = frozenset({"figure", "aside", "nav", "form", "head"})
_PROTECTED = frozenset({"html", "body", "main", "article"})
_TITLE_SEPARATORS = re.compile(r"\s+(?:\||-|–|—|::|»|·|/)\s+")


def _removed(page: Page, el: Any) -> bool:
    if el.tag in REMOVED_TAGS or page.is_hidden(el):
        return True
    return el.tag not in _PROTECTED and page.is_boilerplate(el)


@dataclass
class _Stats:
    chars: int = 0
    tags: int = 0  # nested (descendant) elements kept
    links_images: int = 0


def _clean_len(text: str | None) -> int:
    return len(" ".join(text.split())) if text else 0


def _walk(page: Page) -> tuple[list[Any], dict[Any, _Stats]]:
    """Kept elements in document order with their cleartext length, nested tags and links/images."""
    root = page.body
    order: list[Any] = []
    stats: dict[Any, _Stats] = {}
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        if event == "start":
            if el is not root and _removed(page, el):
                walker.skip_subtree()
                continue
            order.append(el)
            stats[el] = _Stats(chars=_clean_len(el.text))
            continue
        if el is root:
            break
        parent = stats[el.getparent()]
        parent.chars += _clean_len(el.tail)
        mine = stats.get(el)
        if mine is None:
            continue
        parent.chars += mine.chars
        parent.tags += 1 + mine.tags
        parent.links_images += mine.links_images + (1 if el.tag in ("a", "img") else 0)
    return order, stats


def _text(page: Page, el: Any) -> str:
    parts: list[str] = []
    walker = etree.iterwalk(el, events=("start", "end"))
    for event, node in walker:
        if event == "start":
            if node is not el and _removed(page, node):
                walker.skip_subtree()
                continue
            parts.append(node.text or "")
        elif node is not el:
            parts.append(node.tail or "")
    return " ".join(" ".join(parts).split())


def content_bearing(order: list[Any], stats: dict[Any, _Stats]) -> set[Any]:
    """Step 1–2: paragraphs with enough text and little markup, plus those lying between two of them."""
    cbp = {el for el in order if el.tag == "p" and stats[el].chars >= CP and stats[el].tags * CT <= stats[el].chars}
    between = set()
    for el in order:
        if el.tag != "p" or el in cbp:
            continue
        if el.getprevious() in cbp and el.getnext() in cbp:
            between.add(el)
    return cbp | between


def newsfeed_body(page: Page) -> str | None:
    """Article body as cleartext paragraphs, or ``None`` when nothing convincing is found."""
    order, stats = _walk(page)
    for el in order:
        if (el.get("itemprop") or "").lower() == "articlebody":
            return _text(page, el) or None
    cbp = content_bearing(order, stats)
    children: dict[Any, list[Any]] = {}
    for el in order:
        if el in cbp:
            children.setdefault(el.getparent(), []).append(el)
    best: list[Any] = []
    best_len = 0
    for el in order:
        paragraphs = children.get(el)
        if not paragraphs:
            continue
        length = sum(stats[p].chars for p in paragraphs)
        if length > C_SIGMA and length > 2 * best_len:
            best, best_len = paragraphs, length
    if best:
        return "\n".join(_text(page, p) for p in best)
    for el in order:
        if el.tag in ("div", "td"):
            s = stats[el]
            if s.chars > C_SIGMA and s.chars > CT * s.links_images:
                return _text(page, el) or None
    return None


def newsfeed_title(page: Page) -> str | None:
    """A single ``<h1>``, else ``<meta name=title>``, else ``<title>``; site name stripped."""
    root = page.root
    headings = [h for h in root.iter("h1")]
    title = None
    if len(headings) == 1:
        title = _text(page, headings[0])
    if not title:
        for meta in root.iter("meta"):
            if (meta.get("name") or "").lower() == "title" and (meta.get("content") or "").strip():
                title = meta.get("content")
                break
    if not title:
        for node in root.iter("title"):
            title = node.text_content()
            break
    if not title:
        return None
    return strip_site_name(" ".join(title.split()), _site_names(page))


def _site_names(page: Page) -> list[str]:
    names = []
    for meta in page.root.iter("meta"):
        if (meta.get("property") or meta.get("name") or "").lower() in ("og:site_name", "application-name"):
            names.append(meta.get("content") or "")
    url = getattr(page, "url", None) or ""
    host = re.sub(r"^[a-z]+://", "", url).split("/")[0].split(":")[0]
    labels = [part for part in host.split(".") if part not in ("www", "com", "org", "net", "co", "uk", "news")]
    names.extend(labels)
    return [n for n in names if n]


def _squash(text: str) -> str:
    return re.sub(r"\W+", "", text).casefold()


def strip_site_name(title: str, site_names: list[str]) -> str:
    """Drop separator-delimited parts naming the site ("Story | BBC Sport"); else keep the longest part."""
    parts = [p for p in _TITLE_SEPARATORS.split(title) if p.strip()]
    if len(parts) < 2:
        return title
    names = [_squash(n) for n in site_names if _squash(n)]
    kept = [p for p in parts if not any(n in _squash(p) or _squash(p) in n for n in names)]
    if len(kept) == 1:
        return kept[0]
    return max(parts if not kept else kept, key=len)


def extract(page: Page) -> BodyResult:
    """Registry entry (``method="newsfeed"``): the DOM heuristic's body and the title rule's title."""
    body = newsfeed_body(page)
    return BodyResult(body, 1.0 if body else 0.0, newsfeed_title(page))
