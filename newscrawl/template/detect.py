"""Template detection end to end: pages -> skeletons -> votes -> :class:`Template`.

``detect_template(key_page, pages)`` maps the key page onto the given pages (the first ``n`` are
used, later ones replace atypical pages, seed 003 chapter 8); ``learn_template(url, fetch)``
first finds those pages with the n-CS search over the site's links; ``templates_for_group``
learns one template per page of a group of pages that need not link each other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from newscrawl.links.urls import registrable_domain
from newscrawl.template.etdm import Params, Skeleton, etdm
from newscrawl.template.model import Template, body_of
from newscrawl.template.topology import find_cs, hyperlink_distance, link_relevance_key, page_links

DEFAULT_PARAMS = Params()


def root_of(page: Any) -> Any:
    """lxml root of a Page, an lxml element, or HTML text/bytes (parsed once by Page)."""
    if isinstance(page, (str, bytes)):
        from newscrawl.page import Page

        return Page.from_html(page).root
    root = getattr(page, "root", page)
    return root


def skeleton_of(page: Any) -> Skeleton:
    return page if isinstance(page, Skeleton) else Skeleton.from_element(body_of(root_of(page)))


@dataclass
class Detection:
    """Votes per key-page node, the candidate pages used, and the atypical ones replaced."""

    votes: list[int]
    used: list[int]
    replaced: list[int] = field(default_factory=list)


def vote_with_replacement(
    key: Skeleton,
    candidates: Sequence[Skeleton],
    n: int,
    params: Params,
    atypical: float = 0.5,
    mapper: Callable[[int], dict[int, int]] | None = None,
) -> Detection:
    """Map the key page onto the first ``n`` candidates (``mapper(k)``, default the ETDM onto
    candidate ``k``). A used page is atypical (seed 003 chapter 8) when it misses more than
    ``atypical`` of the key-page nodes that every other used page maps; it is replaced by the next
    unused candidate while there is one."""
    mappings: dict[int, dict[int, int]] = {}

    def mapping(k: int) -> dict[int, int]:
        if k not in mappings:
            mappings[k] = mapper(k) if mapper is not None else etdm(key, candidates[k], params)
        return mappings[k]

    used = list(range(min(n, len(candidates))))
    spare = list(range(len(used), len(candidates)))
    replaced: list[int] = []
    while len(used) >= 3 and spare:
        misses = {}
        for k in used:
            consensus = set.intersection(*(set(mapping(o)) for o in used if o != k))
            misses[k] = len(consensus - set(mapping(k))) / max(1, len(consensus))
        worst = max(used, key=lambda k: misses[k])
        if misses[worst] <= atypical:
            break
        used[used.index(worst)] = spare.pop(0)
        replaced.append(worst)
    votes = [0] * len(key)
    for k in used:
        for x in mapping(k):
            votes[x] += 1
    return Detection(votes, used, replaced)


def detect_template(
    key_page: Any,
    pages: Sequence[Any],
    *,
    n: int = 3,
    t: int = 3,
    params: Params | None = None,
    atypical: float = 0.5,
    key_url: str | None = None,
    page_ids: Sequence[str] | None = None,
    mapper: Callable[[int], dict[int, int]] | None = None,
) -> Template:
    """Template of ``key_page`` with respect to ``pages`` (Pages, lxml roots, HTML or Skeletons):
    the nodes mapped in at least ``t`` of the (up to ``n``) pages used; with fewer pages than
    ``t``, in all of them."""
    params = params or DEFAULT_PARAMS
    key = skeleton_of(key_page)
    candidates = [skeleton_of(p) for p in pages]
    det = vote_with_replacement(key, candidates, n, params, atypical, mapper)
    ids = list(page_ids) if page_ids is not None else [str(k) for k in range(len(candidates))]
    url = key_url or getattr(key_page, "url", None)
    return Template.from_votes(
        key,
        det.votes,
        max(1, min(t, len(det.used))),
        params,
        key_url=url,
        site=registrable_domain(url) if url else None,
        pages=[ids[k] for k in det.used],
    )


@dataclass
class Learned:
    """Result of :func:`learn_template`: the template (None without any usable page) and the
    n-CS search's trace."""

    template: Template | None
    cs: list[str]
    loaded: list[str]


def learn_template(
    key_url: str,
    fetch: Callable[[str], str | bytes | None],
    *,
    key_html: str | bytes | None = None,
    n: int = 3,
    t: int = 3,
    params: Params | None = None,
    max_loads: int = 15,
    atypical: float = 0.5,
) -> Learned:
    """Seed 003 end to end from a key page URL: n-CS over its on-site links (Algorithm 2,
    loading pages with ``fetch(url) -> html | None``), then the voted mapping (Algorithm 3)."""
    html = key_html if key_html is not None else fetch(key_url)
    if html is None:
        return Learned(None, [], [])
    key_root = root_of(html)
    roots: dict[str, Any] = {}

    def load(url: str) -> list[str] | None:
        page_html = fetch(url)
        if page_html is None:
            return None
        roots[url] = root_of(page_html)
        return [link.url for link in page_links(roots[url], url)]

    search = find_cs(key_url, page_links(key_root, key_url), load, n=n, max_loads=max_loads)
    return Learned(
        template_from_search(
            key_root, key_url, search.best, search.processed, roots, n=n, t=t, params=params, atypical=atypical
        ),
        list(search.best),
        list(search.processed),
    )


def template_from_search(
    key_root: Any,
    key_url: str,
    cs: Sequence[str],
    processed: Sequence[str],
    roots: dict[str, Any],
    *,
    n: int,
    t: int,
    params: Params | None,
    atypical: float,
) -> Template | None:
    """The CS pages first, then the other loaded pages as replacements for atypical ones."""
    if not cs:
        return None
    order = [u for u in cs if u in roots] + [u for u in processed if u in roots and u not in cs]
    return detect_template(
        key_root,
        [roots[u] for u in order],
        n=len(cs),
        t=min(t, n),
        params=params,
        atypical=atypical,
        key_url=key_url,
        page_ids=order,
    )


def templates_for_group(
    pages: Sequence[tuple[str, str | None, Any]],
    *,
    n: int = 5,
    t: int = 5,
    params: Params | None = None,
    atypical: float = 0.5,
) -> dict[str, Template]:
    """One template per page of a group of same-site pages ``(id, url, page)`` learned from the
    others (no link search: the pages are mapped directly). The farthest URLs (link relevance
    reversed) come first: with no menu to say which pages share the template, pages as different
    as possible isolate what the whole site shares (seed 003 §2.2.3's argument; measured in
    docs/decisions.md). A node is template when all ``n`` (= ``t``) pages map it: more pages than a
    crawl's n-CS, since here they cost no download and every other page is a candidate (measured
    in docs/decisions.md). Groups of fewer than 3 pages get no templates."""
    if len(pages) < 3:
        return {}
    params = params or DEFAULT_PARAMS
    skeletons = [skeleton_of(page) for _, _, page in pages]
    pairs: dict[tuple[int, int], dict[int, int]] = {}

    def mapped(k: int, o: int) -> dict[int, int]:
        """ETDM of page k onto page o; each pair is mapped once (Def. 3.3.1 is symmetric, so
        o onto k is the inverse)."""
        if (o, k) in pairs:
            return {y: x for x, y in pairs[(o, k)].items()}
        if (k, o) not in pairs:
            pairs[(k, o)] = etdm(skeletons[k], skeletons[o], params)
        return pairs[(k, o)]

    result = {}
    for k, (page_id, url, _) in enumerate(pages):
        others = [o for o in range(len(pages)) if o != k]
        if url:
            others.sort(key=lambda o: link_relevance_key(hyperlink_distance(url, pages[o][1] or url)), reverse=True)

        def mapper(idx: int, k: int = k, others: list[int] = others) -> dict[int, int]:
            return mapped(k, others[idx])

        template = detect_template(
            skeletons[k],
            [skeletons[o] for o in others],
            n=n,
            t=t,
            params=params,
            atypical=atypical,
            key_url=url,
            page_ids=[pages[o][0] for o in others],
            mapper=mapper,
        )
        result[page_id] = template
    return result
