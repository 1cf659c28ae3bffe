"""Site templates, measured: speed and CS on real and demo sites, body F1 with and without
template removal, template node precision/recall/F1.

    .venv/bin/python benchmarks/templates.py [--part 1,2,3] [--grid]

(1) ``learn_template`` on key pages of the saved site ``../shared/sites/wyofile`` and of the demo
    site, each served on 127.0.0.1: time per key page (all of it: fetching, parsing, n-CS,
    mapping; and the mapping alone), CS size, pages loaded, template size.
(2) body F1 (the issue-4 shingle metric, ``newscrawl.evaluate``) of ``newscrawl.extract`` with and
    without template removal, per site group: cleanportaleval by ``site``, wcxb-dev by
    registrable domain where a domain has >= 3 pages with a gold body. Each page's template is
    learned from the other pages of its group (``templates_for_group``).
(3) template node precision/recall/F1 on cleanportaleval, on the demo site's articles (and per
    wcxb group). The issue's definition: every node outside the gold main content that appears
    on all pages of the site is template. Exactly: over the elements under ``<body>`` the mapper
    sees (no script/style/...; the body itself excluded), an element is *main content* when all
    the text in its subtree is content, i.e. at least half of the words of every own-text run
    are covered by a 4-word shingle of the page's word stream that occurs in the gold body, and
    any element inside such an element; an element is *gold template* when it is not main
    content and it appears on every other page of the site (its group). "Appears" is decided three
    ways, all printed: ``strict`` - that page has an element with the same signature path (tag,
    id and classes of every element from ``<body>`` down) and the same own text;
    ``normalized`` - the same with per-page tokens ignored: digit runs in ids and classes read as
    ``0``, and an element with an id is known by tag and id alone (see ``signatures``);
    ``matched`` - the exact top-down mapping of the page onto that other page maps it (seed 003's
    equality probability and Def. 3.3.1 with the frozen GOLD_PARAMS, pairwise over all pages, not
    the n pages a template is learned from; it shares the mapper with the algorithm, so it is
    not an independent check). A node that appears on some but
    not all other pages is not template: predicting it is a false positive ("fp some pages").
    Each page's template is learned from n other pages only, so the score says how well n pages
    stand for the whole site.
``--grid`` prints (2) and (3) for the candidate parameter settings of docs/decisions.md.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
import urllib.request
from collections import defaultdict
from dataclasses import replace
from typing import Any

from newscrawl.evaluate import body_scores, load_dataset, read_page
from newscrawl.extract.api import extract_page
from newscrawl.links.urls import registrable_domain
from newscrawl.page import Page
from newscrawl.paths import datasets_dir, shared_dir
from newscrawl.template.detect import DEFAULT_PARAMS, learn_template, templates_for_group
from newscrawl.template.etdm import Params, Skeleton, etdm
from newscrawl.template.extraction import filter_lines, strip_page
from newscrawl.template.model import body_of

WORD = re.compile(r"\w+")

# seed 003 chapter 5: weights .5/.2/.2/.1, notClasses .9 (.75-1), text ignored, classes as they are
_SEED = Params(text_mismatch=1.0, moved_classes=False)
_HYBEX = Params(w_classes=0.1, w_position=0.4, w_attributes=0.0, w_children=0.5, not_classes=1.0,
                not_attributes=0.75, not_children=1.0, threshold=0.9, ordered=False, text_mismatch=1.0,
                moved_classes=False)
GRID: dict[str, Params] = {
    "seed-ch5 (text ignored)": _SEED,
    "seed-ch5 thr=0.7": replace(_SEED, threshold=0.7),
    "seed-ch5 notClasses=0.75": replace(_SEED, not_classes=0.75),
    "seed-ch5 unordered": replace(_SEED, ordered=False),
    "seed-ch5 + text 0": replace(_SEED, text_mismatch=0.0),
    "seed-ch5 + text 0.5": replace(_SEED, text_mismatch=0.5),
    "seed-ch5 + text 0, thr=0.7": replace(_SEED, text_mismatch=0.0, threshold=0.7),
    "seed-ch5 + text 0, thr=0.75": replace(_SEED, text_mismatch=0.0, threshold=0.75),
    "seed-ch5 + text 0, notClasses=1": replace(_SEED, text_mismatch=0.0, not_classes=1.0),
    "seed-ch5 + text 0, unordered": replace(_SEED, text_mismatch=0.0, ordered=False),
    "seed-ch5 + text 0 + moved classes (default)": replace(_SEED, text_mismatch=0.0, moved_classes=True),
    "hybex (.1/.4/0/.5, 1/.75/1, thr=.9, unordered)": _HYBEX,
    "hybex + text 0": replace(_HYBEX, text_mismatch=0.0),
    "hybex + text 0, ordered": replace(_HYBEX, text_mismatch=0.0, ordered=True),
    "default notAttributes=0.5": Params(not_attributes=0.5),
    "default notAttributes=0.75": Params(not_attributes=0.75),
    "default notAttributes=1": Params(not_attributes=1.0),
    "default thr=0.75": Params(threshold=0.75),
}


# --- gold template nodes ----------------------------------------------------------------------------
def own_token_owners(sk: Skeleton) -> list[tuple[str, int]]:
    """The body's words in document order, each with the skeleton node whose own text holds it."""
    index = {id(el): i for i, el in enumerate(sk.elements)}
    out: list[tuple[str, int]] = []
    stack: list[tuple[Any, ...]] = [("el", sk.elements[0])]
    while stack:
        item = stack.pop()
        if item[0] == "txt":
            out.extend((w, item[2]) for w in WORD.findall(item[1]))
            continue
        i = index.get(id(item[1]))
        if i is None:
            continue  # skipped element (script, ...) or comment: its text is not shown
        out.extend((w, i) for w in WORD.findall(item[1].text or ""))
        for child in reversed(item[1]):
            stack.append(("txt", child.tail or "", i))
            stack.append(("el", child))
    return out


def content_nodes(sk: Skeleton, gold_body: str) -> set[int]:
    words = own_token_owners(sk)
    gold = WORD.findall(gold_body or "")
    grams = {tuple(gold[k:k + 4]) for k in range(max(0, len(gold) - 3))}
    covered = [False] * len(words)
    tokens = [w for w, _ in words]
    for k in range(max(0, len(tokens) - 3)):
        if tuple(tokens[k:k + 4]) in grams:
            covered[k:k + 4] = [True] * 4
    own_total = [0] * len(sk)
    own_cov = [0] * len(sk)
    for (_, owner), cov in zip(words, covered):
        own_total[owner] += 1
        own_cov[owner] += cov
    status = ["e"] * len(sk)  # e: no text, c: all text content, n: some non-content text
    for i in range(len(sk) - 1, -1, -1):
        s = "e" if not own_total[i] else ("c" if own_cov[i] * 2 >= own_total[i] else "n")
        for c in sk.children[i]:
            if status[c] == "n":
                s = "n"
            elif status[c] == "c" and s == "e":
                s = "c"
        status[i] = s
    content: set[int] = set()
    for i in range(len(sk)):
        if status[i] == "c" or (i and sk.parent[i] in content):
            content.add(i)
    return content


_DIGITS = re.compile(r"[0-9]+")


def signatures(sk: Skeleton, normalized: bool = False) -> list[tuple[int, int]]:
    """Per element: a hash of its signature path from ``<body>`` down, and its own-text key.

    Strict: each step is (tag, id, classes). Normalized: every digit run in an id or class is
    replaced by ``0`` (generated numbers: ``post-35697``, ``sharing-twitter-1646``), and a step
    whose element has an id is (tag, id) alone (the id names the element; its classes may carry
    page state, such as the ``current-menu-item`` of the menu entry for the page's own section)."""
    sig = [0] * len(sk)
    for i in range(1, len(sk)):  # the body's own id/classes vary by page type; it is the shared root
        tag, id_, classes = sk.tag[i], sk.id[i], sk.classes[i]
        if not normalized:
            step: tuple[Any, ...] = (tag, id_, tuple(sorted(classes)))
        elif id_:
            step = (tag, _DIGITS.sub("0", id_))
        else:
            step = (tag, tuple(sorted({_DIGITS.sub("0", c) for c in classes})))
        sig[i] = hash((sig[sk.parent[i]], step))
    return [(s, t) for s, t in zip(sig, sk.text)]


# The node matching the "matched" gold uses: seed 003's equality probability and exact top-down
# mapping with the parameters of docs/decisions.md, frozen here so that trying other parameters
# (--grid) never moves the gold.
GOLD_PARAMS = Params(w_classes=0.5, w_position=0.2, w_attributes=0.2, w_children=0.1, not_classes=0.9,
                     not_attributes=0.25, not_children=1.0, threshold=0.8, ordered=True, text_mismatch=0.0,
                     moved_classes=True)
GOLDS = ("strict", "normalized", "matched")


def appearances(skeletons: list[Skeleton], how: str) -> list[list[int]]:
    """Per page and node: on how many *other* pages of the site the node appears.

    ``strict``: that page has an element with the same signature path (tag, id and classes of
    every element from ``<body>`` down) and the same own text; ``normalized``: the same with the
    normalized signature path (``signatures``). ``matched``: the exact top-down
    mapping of this page onto that page (GOLD_PARAMS, pairwise, every pair) maps the node, i.e.
    seed 003's own notion of "the same node on another page" (a menu item that carries the
    current page's ``current-menu-item`` class, or a share button whose id holds the post
    number, still appears)."""
    counts = [[0] * len(sk) for sk in skeletons]
    if how in ("strict", "normalized"):
        sigs = [signatures(sk, how == "normalized") for sk in skeletons]
        sets = [set(sg) for sg in sigs]
        for k, sg in enumerate(sigs):
            for o, other in enumerate(sets):
                if o != k:
                    for i, v in enumerate(sg):
                        counts[k][i] += v in other
        return counts
    for k, sk in enumerate(skeletons):
        for o, other in enumerate(skeletons):
            if o != k:
                for i in etdm(sk, other, GOLD_PARAMS):
                    counts[k][i] += 1
    return counts


def gold_template(skeletons: list[Skeleton], bodies: list[str], how: str = "strict"
                  ) -> tuple[list[set[int]], list[set[int]], list[list[int]]]:
    """Gold template nodes per page (every node under <body> outside the gold main content that
    appears on all other pages of the site), with the main-content nodes and the counts."""
    counts = appearances(skeletons, how)
    golds, contents = [], []
    for k, sk in enumerate(skeletons):
        content = content_nodes(sk, bodies[k])
        contents.append(content)
        golds.append({i for i in range(1, len(sk)) if i not in content and counts[k][i] == len(skeletons) - 1})
    return golds, contents, counts


# false positives by kind: inside the gold main content (a real mistake), outside it on some but
# not all other pages (template of part of the site), on no other page
ERRORS = ("tp", "fn", "fp content", "fp some pages", "fp no page")


def fp_of(errors: dict[str, int]) -> int:
    return errors["fp content"] + errors["fp some pages"] + errors["fp no page"]


# --- data -----------------------------------------------------------------------------------------------
_CLEANEVAL_WRAPPER = re.compile(rb"^\s*<text id=[^>]*>|</text>\s*$")


def _unwrap(raw: bytes) -> bytes:
    """CleanEval files wrap the page in ``<text id="URL">``: a format artefact, not the site's
    markup (each page's wrapper has its own id), so it is removed before parsing."""
    return _CLEANEVAL_WRAPPER.sub(b"", raw)


def dataset_groups(name: str, by_site: bool) -> dict[str, list[tuple[str, str | None, bytes, str]]]:
    groups: dict[str, list[tuple[str, str | None, bytes, str]]] = defaultdict(list)
    for rec in load_dataset(datasets_dir() / name):
        body = rec.truth.get("body")
        if rec.path is None or body is None or (not by_site and not rec.url):
            continue
        key = rec.truth.get("site") if by_site else registrable_domain(rec.url or "")
        groups[key].append((rec.id, rec.url, _unwrap(read_page(rec.path)), body))
    return {k: v for k, v in groups.items() if len(v) >= 3}


def demo_group(limit: int = 20) -> list[tuple[str, str | None, bytes, str]]:
    from newscrawl.demo.site import build_demo_site

    site = build_demo_site()
    base = "http://127.0.0.1:8000"
    paths = [p for p, t in site.truth.items() if t.kind == "article" and t.article and not t.article.only_in]
    out = []
    for path in sorted(paths)[:limit]:
        out.append((path, base + path, site.resolve(path, base).body, site.truth[path].article.body))
    return out


def score_group(pages: list[tuple[str, str | None, bytes, str]], params: Params, bodies: bool,
                n: int = 5, t: int = 5) -> dict[str, Any]:
    parsed = [Page.from_html(raw, url) for _, url, raw, _ in pages]
    t0, c0 = time.perf_counter(), time.process_time()
    templates = templates_for_group([(pid, url, page) for (pid, url, _, _), page in zip(pages, parsed)], params=params,
                                   n=n, t=t)
    learn = (time.perf_counter() - t0) / len(pages)
    learn_cpu = (time.process_time() - c0) / len(pages)
    skeletons = [Skeleton.from_element(body_of(p.root)) for p in parsed]
    out: dict[str, Any] = {"pages": len(pages), "learn_s": learn, "learn_cpu": learn_cpu}
    marked_sets = []
    for (pid, *_), page in zip(pages, parsed):
        _, marked = templates[pid].match(page.root)
        marked.discard(0)
        marked_sets.append(marked)
    for how in GOLDS:
        gold, contents, counts = gold_template(skeletons, [b for *_, b in pages], how)
        errors = dict.fromkeys(ERRORS, 0)
        for marked, g, content, count in zip(marked_sets, gold, contents, counts):
            errors["tp"] += len(marked & g)
            errors["fn"] += len(g - marked)
            for i in marked - g:
                errors["fp content" if i in content else "fp some pages" if count[i] else "fp no page"] += 1
        out[how] = errors
    if bodies:
        without, with_, after, both = [], [], [], []
        for (pid, url, raw, body), page in zip(pages, parsed):
            plain = extract_page(Page.from_html(raw, url)).body
            without.append((body, plain))
            stripped = strip_page(page, templates[pid])
            after.append((body, filter_lines(plain, stripped.texts)[0]))
            stripped_body = extract_page(stripped.page).body if stripped.removed else plain
            with_.append((body, stripped_body))
            both.append((body, filter_lines(stripped_body, stripped.texts)[0]))
        out["f1_without"] = body_scores(without)["f1"]
        out["f1_with"] = body_scores(with_)["f1"]
        out["f1_after"] = body_scores(after)["f1"]
        out["f1_both"] = body_scores(both)["f1"]
    return out


def prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def part23(params: Params, label: str, bodies: bool = True, wcxb: bool = True, n: int = 5,
           t: int = 5) -> dict[str, Any]:
    print(f"\n## {label} (n={n}, t={t}): {json.dumps(params.to_dict())}")
    print("template node P/R/F1 against the strict, normalized and matched golds (see the docstring); body F1")
    print("without template removal and with it (before / after / both); CPU s per page to learn its template")
    print(f"{'group':32} {'pages':>5} {'strict P/R/F1':>17} {'normalized P/R/F1':>17} {'matched P/R/F1':>17} "
          f"{'F1 w/o':>6} {'before':>6} "
          f"{'after':>6} {'both':>6} {'cpu s':>6}")
    sources = [("cpe", dataset_groups("cleanportaleval", True))]
    if wcxb:
        sources.append(("wcxb", dataset_groups("wcxb-dev", False)))
    sources.append(("demo", {"demo articles": demo_group()}))
    totals: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: dict.fromkeys(ERRORS, 0))
    worse: dict[str, list[str]] = defaultdict(list)
    means: dict[str, list[float]] = defaultdict(list)
    cpu: list[tuple[float, str]] = []
    for src, groups_ in sources:
        for name, pages in sorted(groups_.items()):
            res = score_group(pages, params, bodies, n, t)
            cells = []
            for how in GOLDS:
                for key, v in res[how].items():
                    totals[(src, how)][key] += v
                    totals[("all", how)][key] += v
                cells.append("%5.3f/%5.3f/%5.3f" % prf(res[how]["tp"], fp_of(res[how]), res[how]["fn"]))
            fwo = res.get("f1_without", float("nan"))
            row = {"before": res.get("f1_with", float("nan")), "after": res.get("f1_after", float("nan")),
                   "both": res.get("f1_both", float("nan"))}
            for k, v in row.items():
                if v < fwo - 1e-9:
                    worse[k].append(f"{name} {fwo:.3f}->{v:.3f}")
            for k, v in (("without", fwo), *row.items()):
                means[k].append(v)
            cpu.append((res["learn_cpu"], name))
            print(f"{src + ':' + name:32.32} {res['pages']:5d} {cells[0]:>17} {cells[1]:>17} {cells[2]:>17} {fwo:6.3f} "
                  f"{row['before']:6.3f} {row['after']:6.3f} {row['both']:6.3f} {res['learn_cpu']:6.3f}")
    for how in GOLDS:
        for src in ("cpe", "demo", "wcxb", "all"):
            e = totals.get((src, how))
            if not e:
                continue
            p, r, f = prf(e["tp"], fp_of(e), e["fn"])
            print(f"template nodes, {how} gold, {src}: P {p:.4f} R {r:.4f} F1 {f:.4f} | TP {e['tp']} FN {e['fn']} "
                  f"FP in gold content {e['fp content']}, on some other pages {e['fp some pages']}, "
                  f"on no other page {e['fp no page']}")
    cpu.sort()
    print(f"CPU time to learn one page's template: median {statistics.median(c for c, _ in cpu):.3f} s, "
          f"max {cpu[-1][0]:.3f} s ({cpu[-1][1]})")
    if bodies:
        for k in ("before", "after", "both"):
            print(f"groups where body F1 with removal {k} extraction < without: {len(worse[k])} of {len(means['without'])}"
                  + (f" ({', '.join(worse[k])})" if worse[k] else ""))
        print("mean body F1 over groups: " + ", ".join(f"{k} {statistics.mean(v):.4f}" for k, v in means.items()))
    return totals


# --- part 1 ----------------------------------------------------------------------------------------------
def fetcher(base: str):
    def fetch(url: str) -> bytes | None:
        if not url.startswith(base):
            return None
        try:
            with urllib.request.urlopen(url, timeout=10) as resp:  # 127.0.0.1 only
                return resp.read() if "html" in (resp.headers.get("Content-Type") or "") else None
        except OSError:
            return None
    return fetch


def part1(n: int, t: int) -> None:
    from newscrawl.demo.server import serve_directory, serve_site
    from newscrawl.demo.site import build_demo_site
    from newscrawl.template.detect import detect_template, root_of

    print(f"\n## (1) learn_template per key page (n={n}, t={t})")
    print("total: fetch over HTTP + parse + n-CS + mapping (wall s); offline: the same with the pages already")
    print("downloaded (parse + n-CS + mapping, CPU s, best of 3); map: skeletons + mapping + template from the")
    print("parsed key and CS pages (best of 3, wall and CPU s); demo key articles also get template node")
    print("P/R/F1 against the demo group's matched gold (part 3)")
    print(f"{'site':8} {'key page':46} {'total s':>7} {'offline':>7} {'map s':>6} {'map cpu':>7} {'CS':>3} {'loaded':>6} "
          f"{'nodes':>6} {'tpl':>5} {'P/R/F1 (demo)':>17}")
    wyo = shared_dir() / "sites" / "wyofile"
    rows = [line.split("\t") for line in (wyo / "_check" / "pages.tsv").read_text().splitlines()[1:]]
    wyo_keys = [r[0] for r in rows if len(r) > 1 and r[1] == "article"][:8] + \
        [r[0] for r in rows if len(r) > 1 and r[1] in ("home", "listing")][:3]
    demo = build_demo_site()
    group = demo_group()  # the first 20 articles: the 8 key articles are among them
    gold_of: dict[str, set[int]] = {}
    golds, _, _ = gold_template([Skeleton.from_element(body_of(Page.from_html(raw, url).root)) for _, url, raw, _ in group],
                                [b for *_, b in group], "matched")
    for (path, *_), gold in zip(group, golds):
        gold_of[path] = gold
    demo_keys = sorted(p for p, tr in demo.truth.items() if tr.kind == "article" and tr.article and not tr.article.only_in)[:8]
    demo_keys += ["/", "/politics/", "/about/"]
    for name, ctx, keys in (("wyofile", serve_directory(wyo), wyo_keys), ("demo", serve_site(demo), demo_keys)):
        with ctx as served:
            base = served.url("/")
            fetch = fetcher(base)
            totals, maps, cpus, offlines = [], [], [], []
            counts = [0, 0, 0]
            for key in keys:
                rel = key if key.startswith("/") else "/" + key.removesuffix("index.html")
                url = served.url(rel)
                t0 = time.perf_counter()
                learned = learn_template(url, fetch, n=n, t=t)
                total = time.perf_counter() - t0
                tpl = learned.template
                downloaded = {u: fetch(u) for u in [url, *learned.loaded]}
                offline = float("inf")
                for _ in range(3):
                    c1 = time.process_time()
                    learn_template(url, downloaded.get, n=n, t=t)
                    offline = min(offline, time.process_time() - c1)
                offlines.append(offline)
                mapped = cpu = 0.0
                quality = ""
                if tpl is not None:  # the mapping alone, pages already parsed
                    key_root = root_of(fetch(url))
                    others = [root_of(fetch(u)) for u in tpl.pages]
                    mapped = cpu = float("inf")
                    for _ in range(3):  # best of 3: the machine is shared
                        t1, c1 = time.perf_counter(), time.process_time()
                        detect_template(key_root, others, n=n, t=t)
                        mapped = min(mapped, time.perf_counter() - t1)
                        cpu = min(cpu, time.process_time() - c1)
                    if name == "demo" and rel in gold_of:
                        _, marked = tpl.match(key_root)
                        marked.discard(0)
                        g = gold_of[rel]
                        c = (len(marked & g), len(marked - g), len(g - marked))
                        counts = [a + b for a, b in zip(counts, c)]
                        quality = "%5.3f/%5.3f/%5.3f" % prf(*c)
                totals.append(total)
                maps.append(mapped)
                cpus.append(cpu)
                print(f"{name:8} {rel[:46]:46} {total:7.3f} {offline:7.3f} {mapped:6.3f} {cpu:7.3f} {len(learned.cs):3d} "
                      f"{len(learned.loaded):6d} {tpl.key_nodes if tpl else 0:6d} {tpl.size if tpl else 0:5d} {quality:>17}")
            print(f"{name}: median total {statistics.median(totals):.3f} s wall; pages downloaded: median "
                  f"{statistics.median(offlines):.3f} s CPU (max {max(offlines):.3f}); mapping alone median "
                  f"{statistics.median(maps):.3f} s wall / {statistics.median(cpus):.3f} s CPU (max {max(cpus):.3f} s CPU) per key page")
            if name == "demo":
                print("demo key articles, template nodes against the matched gold: P %.3f R %.3f F1 %.3f" % prf(*counts))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", default="1,2,3")
    parser.add_argument("--grid", action="store_true", help="compare the candidate parameter settings")
    parser.add_argument("--nt", type=lambda v: tuple(map(int, v.split("/"))), nargs="*", default=[(5, 5)],
                        help="n/t pairs for the grid (default 5/5, the group-mode default)")
    parser.add_argument("--crawl-nt", type=lambda v: tuple(map(int, v.split("/"))), default=(3, 3),
                        help="n/t of part 1's n-CS search (default 3/3, the crawl default)")
    parser.add_argument("--only", help="grid rows whose label contains this")
    parser.add_argument("--no-bodies", action="store_true", help="skip body extraction in the grid")
    args = parser.parse_args(argv)
    parts = set(args.part.split(","))
    if args.grid:
        for label, params in GRID.items():
            if args.only and args.only not in label:
                continue
            for n, t in args.nt:
                part23(params, label, bodies=not args.no_bodies, wcxb=not args.no_bodies, n=n, t=t)
        return 0
    if "1" in parts:
        part1(*args.crawl_nt)
    if parts & {"2", "3"}:
        part23(DEFAULT_PARAMS, "default parameters", bodies="2" in parts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
