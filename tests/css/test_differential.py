"""The scanner against tinycss2: generated CSS must be read as tinycss2.parse_stylesheet reads it.

``newscrawl.css.differential.first_difference`` compares split_rules (rules, preludes and blocks
as tokens, nested blocks too) and the whole parse_stylesheet (kept rules in order with their
selectors, declarations and media conditions, and the imports) with a walk of tinycss2's tree.
The CSS is generated from seeded random choices: comments, strings and escapes before, inside
and after at-rules, in selectors and values, left open at the end; nested @media/@supports/
@layer; @import with media lists, layer() and supports(); CDO/CDC; @charset; BOMs. Saved sites'
stylesheets are compared by benchmarks/css_differential.py (it reads ../shared at run time).
"""

from __future__ import annotations

import random

import pytest

from newscrawl.css import parse_stylesheet, scan
from newscrawl.css.differential import first_difference

JUNK = ["", "", "", " ", "\n", "\r\n", "\t", "\f", "/* c */", "/**/", "/* { } ; \" ' */", "/*/*/",
        "/* @media x { */", " /* a */ ", "<!--", "-->", "\u00a0", "\x0b"]
SELECTORS = ["p", ".a", "#b", "h1 .c", "div > p", "a:not(.x)", '[data-x="a{b}"]', "[title='x;y']",
             "p:is(h1, .a)", ".sm\\:flex", "\\70", ".a\\{b", "p::before", ":root", "*",
             "ul li:nth-child(2n+1)", 'a[href$=".pdf"]', "p\u00a0", "\x0bp", "p -->", ".\u00e9",
             "p\x00", "h2, h3", "em", "[x=url(a)]", ".b\\", "p:where(.a) > em", "div\\ p",
             "#\\31 23", "p/* x */.a", "p\n.a", "[x=\"a\\\"b\"]", "section p:not([hidden])"]
PROPERTIES = ["color", "font-size", "font-weight", "display", "visibility", "float", "position",
              "font", "font-family", "--x", "--Y", "margin", "background", "content", "c\\olor",
              "COLOR", "font-style", "dis\\70 lay", "/* x */color"]
VALUES = ["red", "#123", "#abcdef80", "2em", "bold", "none", "block", '"a;b}"', "'x'",
          "url(a.png)", "url( 'a;b' )", "url(a}b)", "url(a;b)", 'url(a"b)', "url(a\\)b)",
          "var(--x, red)", "rgba(0,0,0,.5)", "calc(1px + 2em)", "\\72 ed", "(a;b)", "[x;y]",
          "red !important", "blue ! important", "{a}", "u\\rl(x;y)", "12px/1.5 Georgia, serif",
          "italic bold 2em serif", "inherit", "var(--x)", "URL(x{)", "x url(y;z)", "1.5url(q)",
          "#url(a;b)", "\"open\nred", "'it''s'", "hsl(120 50% 50% / .5)", "\\\n red",
          "U+0025-00FF", "u+1url(a;b)", "<!--url(a;b)", "-url(a;b)", "Georgia, 'Times New Roman'"]
MEDIA = ["screen", "print", "(min-width: 600px)", "screen and (max-width:100px)", "not print",
         "all", "(min-width:1px;)", "screen/**/and (color)", '"x"', "screen, print",
         "(max-width: 10000px)", "only screen and (min-width: 1px)", "(orientation: landscape)"]
SUPPORTS = ["(display: grid)", "not (display:grid)", "(--a: b)", "selector(p)",
            "(display:flex) and (color: red)", "(display: nonsense)"]
IMPORTS = ['"a.css"', "url(b.css) screen", 'url("c.css") print, screen',
           "'d.css' layer(x) supports(display:grid) screen", "url(e.css) layer", "url(f;g.css)",
           '"h.css" (min-width: 1px)', '/**/"i.css"/**/', "url( j.css )", "k.css", '"l.css" print']
KEYWORDS = ["media", "MEDIA", "\\6d edia", "med\\ia", "supports", "layer", "container", "scope",
            "font-face", "keyframes", "page", "unknown", "-webkit-x", "import", "imp\\ort", "charset"]
OPEN_ENDS = ["/* open", '"open string', "'open", "url(open", "p { color: red", "@import \"x.css\"",
             "@media screen { p { color: red }", "p { color: red; background: url(a", "@media (",
             "\\", "p[x=\"", "@supports (display: grid) { p { font-size: 2em"]
RAW = ["a", " ", "\n", ".b", "#c", "{", "}", ";", ":", ",", "/", "*", "/*", "*/", '"', "'", "\\",
       "@media x", "@import 'u'", "@font-face", "color:red", "font-size:2em", "\u00e9", "[x=y]", "(",
       ")", "[", "]", "\t", "--v:1", "@", "url(", "URL(", "u", "rl(", "<!--", "-->", "\r", "\f", "\x00",
       "\\6d edia", "+", "u+1", "#", "@layer a;", "@charset \"x\";", "\ufeff", "red"]


def _junk(rng: random.Random) -> str:
    return rng.choice(JUNK) if rng.random() < 0.5 else ""


def _declarations(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(0, 4)):
        parts.append(_junk(rng) + rng.choice(PROPERTIES) + _junk(rng) + ":" + _junk(rng)
                     + rng.choice(VALUES) + _junk(rng))
    return ";".join(parts) + rng.choice(["", ";", "; ", ";;"])


def _rule(rng: random.Random, depth: int) -> str:
    """A style rule, an at-rule (nested up to four deep) or a stray piece."""
    roll = rng.random()
    if roll < 0.55 or depth >= 4:
        selectors = ", ".join(rng.choice(SELECTORS) for _ in range(rng.randint(1, 3)))
        return selectors + _junk(rng) + "{" + _declarations(rng) + "}"
    if roll < 0.8:
        keyword = rng.choice(["media", "supports", "layer", "media", "container", "scope"])
        prelude = {"media": lambda: rng.choice(MEDIA), "supports": lambda: rng.choice(SUPPORTS),
                   "layer": lambda: rng.choice(["", "a", "a.b"]),
                   "container": lambda: "x (min-width: 1px)", "scope": lambda: "(.a)"}[keyword]()
        if rng.random() < 0.15:
            keyword = rng.choice(KEYWORDS)
        inner = "".join(_junk(rng) + _rule(rng, depth + 1) for _ in range(rng.randint(0, 3)))
        return "@" + keyword + _junk(rng) + " " + prelude + _junk(rng) + "{" + inner + _junk(rng) + "}"
    if roll < 0.9:
        return "@import" + _junk(rng) + " " + rng.choice(IMPORTS) + _junk(rng) + rng.choice([";", ";", ""])
    return rng.choice(["@charset \"utf-8\";", "@layer a, b;", ("@font-face { font-family: X; src: "
                        "url(x.woff) format('woff'); unicode-range: U+0000-00FF, u+4?? }"),
                       "@keyframes k { from { color: red } to { color: blue } }",
                       "@page { margin: 1cm }", "@unknown foo;", "@-webkit-x {}", "}", ")", "]", ";",
                       "@", "@ p { color: red }", "<!-- -->", "@" + rng.choice(KEYWORDS) + " x;"])


def stylesheet(rng: random.Random) -> str:
    """A generated stylesheet: rules with junk between them, sometimes cut or left open."""
    text = "".join(_junk(rng) + _rule(rng, 0) for _ in range(rng.randint(1, 8))) + _junk(rng)
    roll = rng.random()
    if roll < 0.15:
        text = text[:rng.randint(0, len(text))]  # cut anywhere: whatever was open ends here
    elif roll < 0.3:
        text += rng.choice(OPEN_ENDS)
    if rng.random() < 0.1:
        text = "\ufeff" + text
    return text


@pytest.mark.parametrize("seed", range(6))
def test_generated_stylesheets_are_read_as_tinycss2_reads_them(seed: int) -> None:
    rng = random.Random(seed)
    rules = kept = 0
    for _ in range(250):
        text = stylesheet(rng)
        difference = first_difference(text, url="http://127.0.0.1/css/s.css")
        assert difference is None, f"{text!r}\n{difference}"
        rules += len(scan.split_rules(text))
        kept += len(parse_stylesheet(text).rules)
    assert rules > 700 and kept > 80  # rules were read, and kept


@pytest.mark.parametrize("seed", range(3))
def test_generated_bytes_with_bom_and_charset(seed: int) -> None:
    """Bytes are decoded first (BOM, then @charset, then UTF-8), as browsers do."""
    rng = random.Random(100 + seed)
    for _ in range(120):
        text = stylesheet(rng)
        prefix = rng.choice([b"", b"\xef\xbb\xbf", b'@charset "utf-8";', b'@charset "iso-8859-1";',
                             b"\xef\xbb\xbf@charset \"utf-8\";\n"])
        data = prefix + text.encode("utf-8", "surrogatepass")
        difference = first_difference(data, url="http://127.0.0.1/s.css")
        assert difference is None, f"{data!r}\n{difference}"


@pytest.mark.parametrize("seed", range(4))
def test_random_pieces_are_split_as_tinycss2_splits_them(seed: int) -> None:
    """Random runs of the characters and tokens that decide rule boundaries."""
    rng = random.Random(200 + seed)
    for _ in range(600):
        text = "".join(rng.choice(RAW) for _ in range(rng.randint(0, 50)))
        difference = first_difference(text)
        assert difference is None, f"{text!r}\n{difference}"


def test_the_issue_cases() -> None:
    """A comment before an at-rule hid it (the at-rule became part of a qualified rule)."""
    assert scan.split_rules('/* x */\n@import url("../a.css");\n') == [
        ("import", ' url("../a.css")', None)]
    assert scan.split_rules("/* x */\n@media screen{p{color:red}}\nh1{color:blue}") == [
        ("media", " screen", "p{color:red}"), (None, "h1", "color:blue")]
    assert scan.split_rules('/* x */\n@import url("../a.css");\np{color:red}') == [
        ("import", ' url("../a.css")', None), (None, "p", "color:red")]
    assert scan.split_rules('@import "a.css"') == [("import", ' "a.css"', None)]  # ended by EOF
    for text in ("/* theme header */\n@import url(\"../parent/style.css\");\np { color: red }",
                 "<!-- @media screen { p { color: red } } -->", "p { background: url(a}b); color: red }"):
        assert first_difference(text) is None


def test_hostile_shapes() -> None:
    """The shapes of the hostile stylesheet tests (tests/css/test_stylesheet.py), smaller."""
    cases = ["@media screen {" * 500 + "p { color: red }" + "}" * 500 + " em { color: blue }",
             " p { font-size: " + "(" * 5000 + " } em { color: blue }",
             "div " * 500 + "p { color: red } " + ":not(" * 300 + "p" + ")" * 300 + " { color: red }",
             "p, " + "a, " * 5000 + "b { font-size: 30px } " + "p" + ".x" * 500 + " { color: red }",
             f"@import url(a.css) {'(' * 300}; p {{ --x: {'f(' * 300} }} h1 {{ color: #f00 }}",
             "".join(f".r{i} {{ color: red }} .s{i} {{ margin: 0 }}" for i in range(2000)),
             '@import url("b.css");\nbody{color:#111}\n', "[" * 3000 + "{" * 3000 + "/*",
             "url(" * 2000, "\\" * 3001 + "{", "'" * 2001 + "p{color:red}"]
    for text in cases:
        assert first_difference(text, url="http://127.0.0.1/s.css") is None, text[:200]
