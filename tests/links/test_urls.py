from newscrawl.links.traps import TrapGuard
from newscrawl.links.urls import Scope, UrlCanonicalizer, canonicalize, looks_like_html, registrable_domain


def test_canonicalize_folds_index_fragment_tracking_and_case():
    assert canonicalize("HTTP://Example.COM:80/news/index.html#top") == "http://example.com/news/"
    assert canonicalize("https://example.com/a/?utm_source=x&b=2&a=1&fbclid=zz") == "https://example.com/a/?a=1&b=2"
    assert canonicalize("https://example.com/a;jsessionid=ABC123?x=1") == "https://example.com/a?x=1"
    assert canonicalize("https://example.com/a/?sid=123") == canonicalize("https://example.com/a/?sid=456")


def test_canonicalizer_keeps_meaningful_params_and_custom_list():
    custom = UrlCanonicalizer(["ref"])
    assert custom("https://e.com/x?ref=home&id=7") == "https://e.com/x?id=7"
    assert custom("https://e.com/x?utm_source=a") == "https://e.com/x?utm_source=a"


def test_registrable_domain_uses_bundled_list_and_ports_for_local_hosts():
    assert registrable_domain("https://news.bbc.co.uk/a") == "bbc.co.uk"
    assert registrable_domain("www.example.com") == "example.com"
    assert registrable_domain("http://127.0.0.1:8001/x") == "127.0.0.1:8001"
    assert registrable_domain("http://127.0.0.1:8001/x") != registrable_domain("http://127.0.0.1:8002/")


def test_scope_subdomains_setting():
    scope = Scope(["https://www.example.com/"], allow_subdomains=True)
    assert "https://news.example.com/a" in scope
    assert "https://other.com/a" not in scope
    assert "mailto:a@example.com" not in scope
    strict = Scope(["https://www.example.com/"], allow_subdomains=False)
    assert "https://www.example.com/a" in strict
    assert "https://news.example.com/a" not in strict


def test_looks_like_html():
    assert looks_like_html("https://e.com/story/123")
    assert looks_like_html("https://e.com/a.html")
    assert not looks_like_html("https://e.com/a.pdf")
    assert not looks_like_html("https://e.com/img/photo.JPG")


def test_trap_guard_rules():
    guard = TrapGuard(max_url_length=200, max_pagination=20, max_repeated_segments=3, max_calendar_pages=5)
    assert guard.check("https://e.com/" + "x" * 300) == "url_too_long"
    assert guard.check("https://e.com/a/b/a/b/a/b/") == "repeated_segments"
    assert guard.check("https://e.com/news/page/21/") == "pagination"
    assert guard.check("https://e.com/news/page/20/") is None
    assert guard.check("https://e.com/news/?page=99") == "pagination"
    verdicts = [guard.check(f"https://e.com/calendar/?month=2025-{m:02d}") for m in range(1, 9)]
    assert verdicts[:5] == [None] * 5 and verdicts[5:] == ["calendar"] * 3
    assert guard.check("https://e.com/2025/03/14/a-story/") is None


def test_registrable_domain_plain_host_fast_path_agrees_with_urlsplit():
    import random

    from newscrawl.links.urls import _split_domain  # urlsplit's way, for every URL

    rng = random.Random(7)
    pieces = ["http://", "https://", "HTTP://", "HttpS://", "ftp://", "httpſ://", "//", " http://", "http:/"]
    hosts = ["News.BBC.co.uk", "www.example.com.", "example.com", "a-b.example.org", "127.0.0.1", "localhost",
             "user@example.com", "example.com:8080", "[::1]", "exa mple.com", "example.com\t", "ex%41.com",
             "xn--bcher-kva.example", "sub.example.co.jp", "k.com", "co.uk", ""]
    tails = ["", "/", "/a/b?x=1", "?q=2", "#frag", "/path with space", ":80/x", "@evil.com/", "\\x"]
    seen = 0
    for _ in range(3000):
        url = rng.choice(pieces) + rng.choice(hosts) + rng.choice(tails)
        try:
            expected = _split_domain(url)
        except ValueError:
            continue
        registrable_domain.cache_clear()
        assert registrable_domain(url) == expected, url
        seen += 1
    assert seen > 2000
