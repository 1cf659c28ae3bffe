"""Link-target features (seed 002) on hand-made URLs."""

from __future__ import annotations

import pytest

from newscrawl.links.features import FEATURE_NAMES, RESERVED_WORDS, feature_vector, link_features


def feature(url: str, name: str, **kwargs: object) -> float:
    return link_features(url, **kwargs)[name]


@pytest.mark.parametrize(
    "url",
    [
        "https://news.example.com/2019/04/15/us/politics/senate-vote.html",
        "https://news.example.com/2019/04/senate-vote/",
        "https://news.example.com/politics/20190415-senate-vote",
        "https://news.example.com/politics/2019-04-15/senate-vote",
        "https://news.example.com/politics/2019_4_5_senate-vote",
        "https://news.example.com/politics/15.04.2019/senate-vote",
        "https://news.example.com/blog/2023/october/03/senate-vote/",
        "https://news.example.com/politics/senate-vote-april-15-2019",
        "https://news.example.com/story?date=2019-04-15",
    ],
)
def test_date_found(url: str) -> None:
    assert feature(url, "has_date") == 1.0


@pytest.mark.parametrize(
    "url",
    [
        "https://news.example.com/politics/senate-vote/",
        "https://news.example.com/2019/senate-vote/",  # a year alone is not a date
        "https://news.example.com/story/20191345-senate",  # month 13
        "https://news.example.com/story/201112355.html",  # an id that only starts like a date
        "https://news.example.com/top-100-2019-films/",
    ],
)
def test_date_not_found(url: str) -> None:
    assert feature(url, "has_date") == 0.0


@pytest.mark.parametrize(
    "url",
    [
        "https://abcnews.example.com/story?id=62025268",
        "https://news.example.com/world/europe-67439126",
        "https://news.example.com/news/details/387323",
        "https://news.example.com/index.php?p=42",
        "https://news.example.com/2019/04/15/38473/",  # an id after the date
    ],
)
def test_number_found(url: str) -> None:
    assert feature(url, "has_number") == 1.0


@pytest.mark.parametrize(
    "url",
    [
        "https://news.example.com/politics/senate-vote/",
        "https://news.example.com/2019/04/15/senate-vote/",  # the date's digits are not an id
        "https://news.example.com/top-10-films/",
        "https://news.example.com/section/page/2/",
    ],
)
def test_number_not_found(url: str) -> None:
    assert feature(url, "has_number") == 0.0


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://news.example.com/", 1.0),
        ("https://news.example.com", 1.0),
        ("https://news.example.com/politics/", 1.0),
        ("https://news.example.com/politics/index.html", 1.0),  # the same page as /politics/
        ("https://news.example.com/politics/senate-vote", 0.0),
        ("https://news.example.com/politics/senate-vote.html", 0.0),
        ("https://news.example.com/politics/senate-vote?ref=home", 0.0),
        ("javascript:void(0)", 0.0),
    ],
)
def test_ends_with_slash(url: str, expected: float) -> None:
    assert feature(url, "ends_with_slash") == expected


@pytest.mark.parametrize(
    "url",
    [
        "https://news.example.com/gallery/storm-pictures/",
        "https://news.example.com/videos/",
        "https://video.example.com/v/6026408055001/",
        "https://news.example.com/tag/elections/",
        "https://news.example.com/category/politics/",
        "https://news.example.com/author/jane-doe/",
        "https://news.example.com/live/",
        "https://news.example.com/podcasts/the-daily/",
        "https://news.example.com/politics/page/3/",
        "https://news.example.com/politics/?page=3",
        "https://news.example.com/feed/",
        "https://news.example.com/about.html",
        "https://news.example.com/?s=election",
    ],
)
def test_reserved_word_found(url: str) -> None:
    assert feature(url, "has_reserved_word") == 1.0


@pytest.mark.parametrize(
    "url",
    [
        "https://news.example.com/politics/senate-vote/",
        "https://news.example.com/watch-the-video-of-the-storm/",  # inside a slug, not a segment
        "https://news.example.com/tagged-fish-return-upriver/",
        "https://news.example.com/page-turner-novels-of-the-year/",
        "https://news.example.com/2019/04/15/senate-vote.html",
    ],
)
def test_reserved_word_not_found(url: str) -> None:
    assert feature(url, "has_reserved_word") == 0.0


def test_reserved_words_configurable() -> None:
    url = "https://news.example.com/dossier/elections/"
    assert feature(url, "has_reserved_word") == 0.0
    assert feature(url, "has_reserved_word", reserved_words=(*RESERVED_WORDS, "dossier")) == 1.0
    assert feature("https://news.example.com/tag/x/", "has_reserved_word", reserved_words=("dossier",)) == 0.0


def test_url_length() -> None:
    short, long = "https://ex.com/a/", "https://ex.com/a/" + "b" * 80
    assert feature(short, "url_length") == len(short)
    assert feature(long, "url_length") == len(long)
    # index.html is dropped before measuring, as canonicalisation does
    assert feature("https://ex.com/a/index.html", "url_length") == len(short)


@pytest.mark.parametrize(
    ("url", "tokens"),
    [
        ("https://news.example.com/politics/senate-passes-the-budget-deal/", 5.0),
        ("https://news.example.com/politics/senate_passes_budget.html", 3.0),  # extension not counted
        ("https://news.example.com/politics/", 1.0),
        ("https://news.example.com/politics/index.html", 1.0),
        ("https://news.example.com/", 0.0),
    ],
)
def test_slug_tokens(url: str, tokens: float) -> None:
    assert feature(url, "slug_tokens") == tokens


def test_non_http_link_has_no_structure() -> None:
    values = link_features("mailto:desk@example.com")
    assert values["slug_tokens"] == values["has_reserved_word"] == values["ends_with_slash"] == 0.0


def test_vector_follows_feature_names() -> None:
    url = "https://news.example.com/2019/04/15/us/politics/senate-vote.html?id=12"
    values = link_features(url)
    assert list(values) == list(FEATURE_NAMES)
    assert feature_vector(url) == [values[name] for name in FEATURE_NAMES]


def test_percent_encoded_slug() -> None:
    # an Arabic slug counts its words, not its escape sequences
    url = "https://ex.com/news/%D8%A8%D8%B9%D8%AF-%D8%B6%D8%A8%D8%B7-%D9%85%D9%86"
    values = link_features(url)
    assert values["slug_tokens"] == 3.0
    assert values["has_number"] == 0.0


@pytest.mark.parametrize("url", ["http://[::1/broken", "", "   ", "https://", "//no-scheme.example/a-b-c-d/"])
def test_malformed_urls_do_not_raise(url: str) -> None:
    values = link_features(url)
    assert values["has_date"] == values["has_reserved_word"] == 0.0
    assert values["slug_tokens"] == 0.0


def test_plain_urls_are_split_as_urlsplit_splits_them():
    """Plain http(s) URLs skip urlsplit; host, path and query must still be urlsplit's."""
    import random
    from urllib.parse import urlsplit

    from newscrawl.links.features import _http_parts

    urls = ["https://News.Example.com/a/b?c=1?d#e?f", "http://u:p@Host:8080", "http://h%Zone/x", "http://x.org?q",
            "http://x.org#f", "https://[::1]/a", "http://x[y/z", "HTTP://X.org/a", "http:///a", "ftp://x.org/a",
            "http://x.org/a b", "http://é.org/", "http://a@b@c/"]
    rng = random.Random(11)
    alphabet = ["a", "Z", "/", ".", "?", "#", ":", "@", "%", "[", "]", " ", "http://", "https://", "u:p@", ":80"]
    urls += [rng.choice(["http://", "https://"]) + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10)))
             for _ in range(2000)]
    for url in urls:
        try:
            parts = urlsplit(url)
        except ValueError:
            parts = urlsplit("")
        is_http = parts.scheme in ("http", "https") and bool(parts.netloc)
        expected = (parts.hostname or "", parts.path, parts.query, True) if is_http else ("", "", "", False)
        assert _http_parts(url) == expected, url


def test_date_spans_are_those_of_the_patterns_spelled_with_a_leading_lookbehind():
    """The date patterns test "not after a digit" after their first digits (so the engine skips to
    candidate positions); every span must be the one the plain spelling finds."""
    import random
    import re

    from newscrawl.links.features import _MONTHS, _SEP, _date_spans

    plain = [re.compile(p) for p in (
        rf"(?<!\d)(?:19|20)\d\d{_SEP}(?:0?[1-9]|1[0-2])(?:{_SEP}(?:0?[1-9]|[12]\d|3[01]))?(?!\d)",
        r"(?<!\d)(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?!\d)",
        rf"(?<!\d)(?:0?[1-9]|[12]\d|3[01]){_SEP}(?:0?[1-9]|1[0-2]){_SEP}(?:19|20)\d\d(?!\d)",
        r"(?<!\d)(?:0[1-9]|[12]\d|3[01])(?:0[1-9]|1[0-2])(?:19|20)\d\d(?!\d)",
        rf"(?<!\d)(?:19|20)\d\d{_SEP}{_MONTHS}(?:{_SEP}(?:0?[1-9]|[12]\d|3[01]))?(?![a-z\d])",
        rf"(?<![a-z]){_MONTHS}{_SEP}(?:0?[1-9]|[12]\d|3[01]){_SEP}(?:19|20)\d\d(?!\d)",
        rf"(?<!\d)(?:0?[1-9]|[12]\d|3[01]){_SEP}{_MONTHS}{_SEP}(?:19|20)\d\d(?!\d)")]
    rng = random.Random(8)
    texts = ["/2019/04/15/a", "/x2019-4-1", "/120190415", "/15.04.2019", "/015042019", "/2019-april-15",
             "/april-15-2019", "/5-apr-2019/", "/32-1-2019", "/3-12-20199"]
    texts += ["".join(rng.choice("0123456789/-_.ajnfebmrpyusgoctvdl?=&x") for _ in range(rng.randint(0, 40)))
              for _ in range(20000)]
    texts += [f"{rng.choice(['', 'x', '1', '/'])}{rng.randint(0, 3)}{rng.randint(0, 9)}{rng.choice('/-_.')}"
              f"{rng.choice(['0', '1', ''])}{rng.randint(0, 9)}{rng.choice('/-_.')}{rng.choice(['19', '20', '21'])}"
              f"{rng.randint(0, 99):02d}{rng.choice(['', '1', '/', 'a'])}" for _ in range(20000)]
    for text in texts:
        expected = [m.span() for regex in plain for m in regex.finditer(text)] if re.search(r"(?:19|20)\d\d", text) else []
        assert _date_spans(text) == expected, text


def test_link_flags_are_link_features_without_the_slug():
    from newscrawl.links.features import link_flags

    for url in ["https://example.com/2024/05/01/story-title/", "https://example.com/tag/storm?page=2",
                "https://video.example.com/watch/123456", "/relative/path", "mailto:a@b.c", "https://x.org/index.html",
                "https://example.com/news/a-b-c.html?id=42", "https://example.com/15-04-2019-x"]:
        f = link_features(url)
        assert link_flags(url) == (bool(f["has_number"]), bool(f["has_date"]), bool(f["ends_with_slash"]),
                                   bool(f["has_reserved_word"]), int(f["url_length"]))


def test_link_flags_many_are_link_flags_of_each_url():
    """The page's links measured together (paths joined, one scan per regex) give each URL's
    link_flags: reserved segments with and without extensions, page/N, index files, dates and ids,
    reserved host labels, and the URLs left to link_flags (queries, %, spaces, non-ASCII, brackets,
    other schemes and cases), in any mix and order."""
    import random

    from newscrawl.links.features import link_flags, link_flags_many

    rng = random.Random(21)
    pieces = ["/", "//", "/video", "/Video.MP4", "/videos.tar.gz", "/tag", "/tags/", "/page/2", "/seite/3/",
              "/pagina/x", "/index.html", "/INDEX.PHP", "/home.aspx/", "/default.jspx12", "/2019/04/15", "/20190415",
              "/15-04-2019", "/april-15-2019", "/2019", "/123", "/12", "/abc123456", "/x.", "/sign-in",
              "/contact-us.html", "/live.", "/%2Fvideo", "/%20a", "?id=5", "?page=2", "?q=x&tag=y", "#frag",
              "#a?b/video", " ", "\t", "é", "/ü/video", "[", "]", "@", ":80", "/a-b_c", "/Ⅷ", "/İ", "\n",
              "/2019_4_5", "/jan-2020", "/2020/jan", ".html", "/x.video", "/pages", "/topic.x1"]
    hosts = ["example.com", "video.example.com", "user@live.example.co.uk:8080", "EXAMPLE.com", "[::1]", "a%b.com",
             "tag.x", "", "news.example.com"]
    urls = [rng.choice(["http://", "https://", "HTTP://", "ftp://", "", "https:/", " https://"]) + rng.choice(hosts)
            + "".join(rng.choice(pieces) for _ in range(rng.randint(0, 6))) for _ in range(6000)]
    for start in range(0, len(urls), 120):
        page = urls[start:start + 120]
        assert link_flags_many(page) == [link_flags(u) for u in page]
    assert link_flags_many([]) == []
    assert link_flags_many(["mailto:a@b.c", "/x"]) == [link_flags("mailto:a@b.c"), link_flags("/x")]


def test_reserved_word_trie_matches_exactly_the_words():
    """The trie-shaped pattern of the batch scan matches every reserved word and nothing else among their
    prefixes, extensions and neighbours (sign-in vs sign, archive vs archives, page vs pages)."""
    import re

    from newscrawl.links.features import _trie_pattern

    words = set(RESERVED_WORDS)
    pattern = re.compile(_trie_pattern(RESERVED_WORDS))
    near = words | {w[:i] for w in words for i in range(len(w))} | {w + c for w in words for c in "s-x1"}
    assert {w for w in near if pattern.fullmatch(w)} == words
    assert re.compile(_trie_pattern(["ab", "abc", "b"])).pattern.count("|") == 1
