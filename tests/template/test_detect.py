"""Template detection on generated pages of one site, the JSON round trip, apply, cache, view."""

from __future__ import annotations

import json
import random
import time

from lxml import html

from newscrawl.template import Template, TemplateCache, cache_key, detect_template, learn_template, templates_for_group
from newscrawl.template.detect import vote_with_replacement
from newscrawl.template.etdm import Params, Skeleton
from newscrawl.template.model import body_of
from newscrawl.template.view import MARK, toggle_view

SECTIONS = ["politics", "business", "sports", "culture", "science"]
WORDS = "river town council budget school water road farm energy court vote snow wolf bridge".split()


def _menu(current: str) -> str:
    items = "".join(f'<li class="menu-item{" current" if s == current else ""}"><a href="/{s}/">{s.title()}</a></li>'
                    for s in SECTIONS)
    return f'<header id="masthead"><a class="logo" href="/">The Ledger</a><nav class="primary"><ul>{items}</ul></nav></header>'


FOOTER = '<footer class="site-footer"><p class="legal">Copyright The Ledger</p><a href="/about/">About us</a></footer>'


def page(kind: str, name: str, seed: int) -> str:
    """A page of the generated site: shared header/menu/footer, a body that differs."""
    rnd = random.Random(seed)
    paras = "".join(f"<p>{' '.join(rnd.choice(WORDS) for _ in range(25))} {seed}-{k}</p>"
                    for k in range(rnd.randint(3, 9)))
    if kind == "section":
        main = "".join(f'<div class="teaser"><h2><a href="/{name}/story-{seed}-{k}/">Story {seed} {k}</a></h2></div>'
                       for k in range(rnd.randint(4, 8)))
    else:
        main = f'<article class="post"><h1>Headline {seed}</h1><div class="entry">{paras}</div></article>'
    section = name if kind == "section" else SECTIONS[seed % len(SECTIONS)]
    return (f"<html><head><title>{name} {seed}</title></head><body>{_menu(section)}"
            f'<div class="wrap"><main>{main}</main><aside class="sidebar"><h3>Newsletter</h3>'
            f'<p class="signup">Sign up for the morning email</p></aside></div>{FOOTER}</body></html>')


def test_detects_the_shared_template_and_not_the_bodies() -> None:
    key = html.document_fromstring(page("article", "a", 1))
    others = [html.document_fromstring(page("section", s, 10 + k)) for k, s in enumerate(SECTIONS[:3])]
    template = detect_template(key, others)
    sk = Skeleton.from_element(body_of(key))
    marked = template.match(key)[1]
    texts = {" ".join(sk.elements[i].text_content().split()) for i in marked}
    for shared in ("The Ledger", "Politics", "Science", "Newsletter", "Sign up for the morning email",
                   "Copyright The Ledger", "About us"):
        assert shared in texts
    body_elements = {i for i in range(len(sk)) if sk.elements[i].tag in ("p", "h1") and sk.elements[i].getparent().tag != "aside"
                     and sk.elements[i].getparent().tag != "footer"}
    assert body_elements and not (body_elements & marked)
    assert template.size == len(template.paths)
    assert all(key.xpath(path) for path in template.paths)  # paths are XPaths on the key page


def test_apply_removes_the_template_from_another_page_of_the_site() -> None:
    template = detect_template(html.document_fromstring(page("article", "a", 1)),
                               [html.document_fromstring(page("article", "b", s)) for s in (2, 3, 4)])
    other = html.document_fromstring(page("article", "c", 77))
    before = " ".join(other.text_content().split())
    removed = template.apply(other)
    after = " ".join(other.text_content().split())
    assert removed > 10
    assert "Sign up for the morning email" in before and "Sign up for the morning email" not in after
    assert "Politics" not in after and "Copyright" not in after
    assert "Headline 77" in after and "77-0" in after and "77-2" in after  # the article stays


def test_json_round_trip_keeps_behaviour() -> None:
    template = detect_template(page("article", "a", 1), [page("section", s, k) for k, s in enumerate(SECTIONS[:3])],
                               key_url="http://www.ledger.com/a/")
    text = template.to_json()
    assert "pickle" not in text and json.loads(text)["version"] == 2
    copy = Template.from_json(text)
    assert copy.to_dict() == template.to_dict()
    assert copy.id == template.id and copy.site == "ledger.com"
    a, b = html.document_fromstring(page("article", "z", 5)), html.document_fromstring(page("article", "z", 5))
    assert template.apply(a) == copy.apply(b) > 0


def test_atypical_page_is_replaced_by_the_next_candidate() -> None:
    key = Skeleton.from_element(body_of(html.document_fromstring(page("article", "a", 1))))
    odd = Skeleton.from_element(body_of(html.document_fromstring(
        "<html><body><div class='popup'><p>Only a login form here</p></div></body></html>")))
    typical = [Skeleton.from_element(body_of(html.document_fromstring(page("section", s, k))))
               for k, s in enumerate(SECTIONS[:3])]
    det = vote_with_replacement(key, [typical[0], odd, typical[1], typical[2]], 3, Params())
    assert det.replaced == [1] and sorted(det.used) == [0, 2, 3]


def test_templates_for_group_needs_three_pages_and_learns_one_per_page() -> None:
    pages = [(f"p{k}", f"http://ledger.com/{SECTIONS[k % 5]}/story-{k}/", page("article", "x", k)) for k in range(4)]
    assert templates_for_group(pages[:2]) == {}
    templates = templates_for_group(pages)
    assert set(templates) == {"p0", "p1", "p2", "p3"}
    assert all(t.size > 20 and len(t.pages) == 3 for t in templates.values())
    assert "p0" not in templates["p0"].pages


def test_learn_template_follows_the_menu_with_a_fetch_callable() -> None:
    site = {f"http://ledger.com/{s}/": page("section", s, k) for k, s in enumerate(SECTIONS)}
    key_url = "http://ledger.com/politics/story-1/"
    fetched: list[str] = []

    def fetch(url: str) -> str | None:
        fetched.append(url)
        return site.get(url, page("article", "k", 1) if url == key_url else None)

    learned = learn_template(key_url, fetch)
    assert learned.template is not None and len(learned.cs) == 3
    assert set(learned.cs) <= set(site)
    assert len(fetched) <= 1 + len(SECTIONS) + 2  # key page + menu pages (+ home/about at most)
    assert "ledger.com" == learned.template.site


def test_cache_memory_disk_and_expiry(tmp_path) -> None:
    template = detect_template(page("article", "a", 1), [page("section", s, k) for k, s in enumerate(SECTIONS[:3])])
    cache = TemplateCache(max_entries=2, directory=tmp_path, expiry=3600)
    cache.put("ledger.com", template)
    assert cache.get("ledger.com") is template
    fresh = TemplateCache(directory=tmp_path, expiry=3600)  # a later run reads the disk copy
    assert fresh.get("ledger.com").id == template.id
    for k in range(3):
        cache.put(f"other{k}.com", template)
    assert len(cache) == 2  # LRU bound
    old = Template.from_dict({**template.to_dict(), "created": time.time() - 7200})
    cache.put("old.com", old)
    assert cache.get("old.com") is None  # expired in memory
    assert TemplateCache(directory=tmp_path, expiry=3600).get("old.com") is None  # and on disk
    assert not list(tmp_path.glob("*.tmp"))


def test_cache_keys_per_domain_and_section() -> None:
    assert cache_key("https://www.bbc.co.uk/news/world-1") == "bbc.co.uk"
    assert cache_key("https://www.bbc.co.uk/sport/football/1", section=True) == "bbc.co.uk/sport"
    assert cache_key("https://www.bbc.co.uk/", section=True) == "bbc.co.uk"


def test_toggle_view_marks_template_subtrees_only() -> None:
    template = detect_template(page("article", "a", 1), [page("section", s, k) for k, s in enumerate(SECTIONS[:3])])
    root = html.document_fromstring(page("article", "a", 1))
    out = html.document_fromstring(toggle_view(root, template, base_url="http://ledger.com/a/"))
    marked = out.xpath(f"//*[contains(@class, '{MARK}')]")
    # the whole header is template (logo and every menu item, "current" or not): marked as one subtree
    assert any(el.tag == "footer" for el in marked) and any(el.get("id") == "masthead" for el in marked)
    assert not any(el.get("class", "").startswith("logo") for el in marked)
    assert not out.xpath(f"//article[contains(@class, '{MARK}')]") and not out.xpath(f"//main[contains(@class, '{MARK}')]")
    assert out.find(".//base").get("href") == "http://ledger.com/a/"
    assert out.xpath("//button[@id='newscrawl-toggle']")
