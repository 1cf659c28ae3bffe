"""Where to look for pages sharing the key page's template (seed 003, chapter 2).

Hyperlink distance (Def. 2.2.5) and DOM distance (Def. 2.2.10) give the link and DOM relevance
preorders; :func:`iter_sorted_links` is Algorithm 1 and :class:`CompleteSubdigraphSearch` is
Algorithm 2 (the n-CS), written as a small state machine so that the same code drives a plain
``fetch(url)`` callable and the crawl's asynchronous downloads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from newscrawl.links.urls import canonicalize, is_http_url, looks_like_html, registrable_domain
from newscrawl.safeurl import join_url


def link_words(url: str) -> tuple[str, ...]:
    """Def. 2.2.4: the host then the directories of ``url``; a last segment with a file extension
    (``index.html``, ``pi.html``) names a resource and is ignored, as the seed's examples do."""
    parts = urlsplit(url if "//" in url else f"//{url}")
    segments = [s for s in parts.path.split("/") if s]
    if segments and not parts.path.endswith("/") and "." in segments[-1]:
        segments.pop()
    return ((parts.hostname or "").lower(), *segments)


def hyperlink_distance(h: str | Sequence[str], h2: str | Sequence[str]) -> int:
    """Def. 2.2.5: 0 same directory, +k for a k-levels-deeper subdirectory, -k when k of ``h``'s
    own words must be climbed (an ancestor, a sibling branch or another host)."""
    a = link_words(h) if isinstance(h, str) else tuple(h)
    b = link_words(h2) if isinstance(h2, str) else tuple(h2)
    common = 0
    for x, y in zip(a, b):
        if x != y:
            break
        common += 1
    if common == len(a):
        return len(b) - common  # equal (0) or h2 = h h1 (+|h1|)
    return -(len(a) - common)  # h = h2 h1, a sibling branch, or a different head


def link_relevance_key(distance: int) -> tuple[int, int]:
    """Def. 2.2.12 as a sort key: 0 first, then +1, +2, ..., then -1, -2, ..."""
    return (0, distance) if distance >= 0 else (1, -distance)


def dom_path(el: object) -> tuple[object, ...]:
    """The DOM path root..el (Def. 1.3), as the nodes themselves."""
    path = []
    node = el
    while node is not None:
        path.append(node)
        node = node.getparent()  # type: ignore[attr-defined]
    path.reverse()
    return tuple(path)


def dom_distance(p1: Sequence[object], p2: Sequence[object]) -> int:
    """Def. 2.2.10 on two DOM paths: the nodes of both paths after their common prefix."""
    common = 0
    for x, y in zip(p1, p2):
        if x is not y:
            break
        common += 1
    return len(p1) - common + len(p2) - common


@dataclass(frozen=True)
class Link:
    """One hyperlink node: its canonical URL and its DOM path in the page."""

    url: str
    path: tuple[object, ...]


def page_links(root: object, base_url: str) -> list[Link]:
    """getLinks: the page's distinct on-site HTML links (first anchor per URL), no self-link."""
    base = canonicalize(base_url)
    site = registrable_domain(base)
    seen = {base}
    links = []
    for a in root.iter("a"):  # type: ignore[attr-defined]
        href = (a.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:", "tel:")):
            continue
        url = join_url(base_url, href)
        if url is None or not is_http_url(url) or not looks_like_html(url):
            continue  # malformed (newscrawl.safeurl), not http(s), not a page
        try:
            url = canonicalize(url)
        except ValueError:  # e.g. a port that is not a number
            continue
        if url in seen or registrable_domain(url) != site:
            continue
        seen.add(url)
        links.append(Link(url, dom_path(a)))
    return links


def iter_sorted_links(links: Iterable[Link], reference: str) -> Iterator[Link]:
    """Algorithm 1, lazily: link-relevance groups in order; inside a group, repeatedly the link
    farthest (DOM relevance) from the links already chosen. Before anything is chosen the other
    links of the page are the reference set, as in the seed's Example 2.2.15."""
    links = list(links)
    ref_words = link_words(reference)
    groups: dict[tuple[int, int], list[Link]] = {}
    for link in links:
        groups.setdefault(link_relevance_key(hyperlink_distance(ref_words, link_words(link.url))), []).append(link)
    chosen: list[Link] = []
    for key in sorted(groups):
        group = groups[key]
        if chosen:
            mins = [min(dom_distance(c.path, g.path) for c in chosen) for g in group]
        else:
            mins = [min((dom_distance(o.path, g.path) for o in links if o is not g), default=0) for g in group]
        while group:
            best = max(range(len(group)), key=lambda i: (mins[i], -i))
            link = group.pop(best)
            mins.pop(best)
            chosen.append(link)
            yield link
            mins = [min(m, dom_distance(link.path, g.path)) for m, g in zip(mins, group)]


def sort_links(links: Iterable[Link], reference: str) -> list[Link]:
    """Algorithm 1 (sort links) in full."""
    return list(iter_sorted_links(links, reference))


@dataclass
class CompleteSubdigraphSearch:
    """Algorithm 2: visit the key page's links in Algorithm 1's order, record which visited pages
    link each other, and stop as soon as the largest complete subdigraph containing the current
    link has ``n`` pages; otherwise the best (largest) one seen is the answer."""

    key_url: str
    key_links: Sequence[Link]
    n: int = 3
    processed: list[str] = field(default_factory=list)
    best: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.reachable = {link.url for link in self.key_links}
        self._order = iter_sorted_links(self.key_links, self.key_url)
        self._out: dict[str, set[str]] = {}
        self.done = self.n <= 0

    def next_url(self) -> str | None:
        """The next link to load, or None when the search is over."""
        if self.done:
            return None
        link = next(self._order, None)
        if link is None:
            self.done = True
            return None
        return link.url

    def record(self, url: str, links: Iterable[str] | None) -> None:
        """The outlinks of the loaded page ``url`` (None when it could not be loaded)."""
        self.processed.append(url)
        self._out[url] = set() if links is None else ({u for u in links if u != url} & self.reachable)
        if links is None:
            return
        mutual = [u for u in self.processed[:-1] if u in self._out[url] and url in self._out[u]]
        clique = _largest_clique(mutual, self._out, self.n - 1)
        if len(clique) + 1 > len(self.best):
            self.best = [url, *clique]
        if len(self.best) >= self.n:
            self.done = True


def _largest_clique(candidates: list[str], out: dict[str, set[str]], limit: int) -> list[str]:
    """Largest set (at most ``limit``) of mutually linked candidates: a bounded depth-first search."""
    best: list[str] = []
    stack: list[tuple[list[str], int]] = [([], 0)]
    while stack:
        clique, start = stack.pop()
        if len(clique) > len(best):
            best = clique
            if len(best) >= limit:
                break
        for i in range(start, len(candidates)):
            c = candidates[i]
            if all(c in out[o] and o in out[c] for o in clique):
                stack.append(([*clique, c], i + 1))
    return best[:limit]


def find_cs(
    key_url: str,
    key_links: Sequence[Link],
    load: Callable[[str], Sequence[str] | None],
    n: int = 3,
    max_loads: int = 15,
) -> CompleteSubdigraphSearch:
    """Run Algorithm 2 with ``load(url) -> outlinks | None``; at most ``max_loads`` pages."""
    search = CompleteSubdigraphSearch(key_url, key_links, n)
    while len(search.processed) < max_loads and (url := search.next_url()) is not None:
        search.record(url, load(url))
    return search
