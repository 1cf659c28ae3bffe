"""Authors from the byline a page shows, for pages that declare none in their metadata.

A byline names its authors as links to their author pages: ``rel="author"`` (the HTML link type
WordPress and most CMSs write), a class naming the author, or an address under an author path
(``/author/mara-stein``, ``/autor/...``, ``/people/140874239/april-fulton``). Only such links near
the headline count, under it first: the same links in a "more from" rail, a related story's card,
a menu of columnists or a comment thread name other stories' authors. A link's text is a name
when it reads as one (a few words, no digits, no address), with "By", "Von", "Par"... taken off.
Without such links, one byline written as text ("By Mara Stein and Tom Berg") in the same reach
names them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from newscrawl.page import Page, collapse

# text nodes around the headline where the byline sits: a kicker, the date and share links may
# come between the headline and the byline, a standfirst too
BEFORE_HEADLINE = 12
AFTER_HEADLINE = 40
MAX_AUTHORS = 4
TEXT_BYLINE_CHARS = 80  # a byline written as text: "By", up to four names, a role or place
STORY_LINE_CHARS = 80  # a line of the story's prose, longer than a byline, a date or a kicker
BYLINE_MAX_CHARS = 200  # a byline block: names, "By", "and", a role, a date
MAX_NAME_CHARS = 60
MAX_NAME_WORDS = 6

# the segments of an author page's address (a segment of its own, followed by the author's slug)
_AUTHOR_PATHS = frozenset(
    {
        "author",
        "authors",
        "autor",
        "autoren",
        "autore",
        "autori",
        "autores",
        "auteur",
        "auteurs",
        "journalist",
        "journalists",
        "journalisten",
        "reporter",
        "reporters",
        "columnist",
        "columnists",
        "writer",
        "writers",
        "contributor",
        "contributors",
        "editor",
        "editors",
        "people",
        "staff",
        "redacteur",
        "redakteur",
    }
)
# the words before a byline's name, in the development sets' languages. German "von" only before a
# capital ("Von Mara Stein", not "von der Leyen"); Italian "di" and Dutch "de" not at all ("Di Muro",
# "De Vries" are names); the CJK labels only with their colon (文在寅 is a name)
_BY = re.compile(
    r"^(?:(by|from|posted by|written by|authors?|autor(?:in)?|von|par|por|scritto da|a cura di|door|przez|"
    r"της|του|από|автор)(?:\s*:?\s+|\s*:?$)|(?:著者|作者|筆者|記者|文)\s*[:：]\s*)",
    re.I,
)
_LINK_ONLY = frozenset({"from"})  # says "by" only on an author's link: in text, "From Reuters" names a source
_CUT = re.compile(r"\s*(?:,|;|\||•|·|–|—| - |\()")  # a name ends at a comma, a separator, a role in brackets
_AND = re.compile(r"\s+(?:and|und|y|et|e|en|i|oraz|&)\s+")
_PARTICLES = frozenset("van von der den de del della di da dos du la le bin ibn al el ter ten zu st.".split())
# a class token naming an author's link ("author", "post-author", "Author-authorName", "author__name"),
# not "authorized-dealer"
_AUTHOR_CLASS = re.compile(r"(?:^|[\s_-])author(?:s|name)?(?=$|[\s_-])", re.I)
_NOT_A_NAME = re.compile(r"[\d@/\\|<>{}=#»«]|https?:|www\.", re.I)
# link texts that are the link's purpose, not a name ("Full bio", "View author page", "See all")
_LINK_WORDS = frozenset(
    "bio biography profile view see more all posts articles stories page author authors people about by "
    "checked reviewed updated published follow".split()
)
# a credit for other work before a name: "Reviewed by", "Fact checked by", "Photos by", "Edited by"
_OTHER_CREDIT = re.compile(
    r"(?:review|check|edit|verif|illustrat|photo|foto|picture|image|bild|video|graphic|translat|traduc|übersetz|"
    r"produc|翻訳|写真|撮影|编译|摄影)\w*\s*(?:by|von|par|por)?\s*[:：]?\s*$",
    re.I,
)


def byline_authors(
    page: Page, headline: int | None, content: Sequence[int] = (), comment_cut: int | None = None
) -> list[str]:
    """The names the byline near the ``headline`` (a text-node index) links to author pages, in
    page order, each once; [] without a headline or such a link. The byline lies between the
    headline and the story's first line of prose in ``content`` (NCE's text nodes): the story's
    end, a rail after it and the comments are out of its reach; a byline over the headline (within
    BEFORE_HEADLINE text nodes) counts when there is none under it. It is the block of the first
    such link (its largest ancestor of at most BYLINE_MAX_CHARS): co-authors share it. A name
    credited for other work ("Reviewed by", "Photos by") is no author. Without such a link, the
    byline written as text in the same reach (:func:`_text_byline`)."""
    if headline is None:
        return []
    first = max(0, headline - BEFORE_HEADLINE)
    last = min(headline + AFTER_HEADLINE, story_start(page, headline, content) - 1)
    if comment_cut is not None:
        last = min(last, comment_cut - 1)
    links = page.with_tags("a")
    # under the headline first: a menu over it may link columnists' pages
    for low, high in ((headline, last), (first, headline - 1)):
        names = _linked_names(page, links, low, high) or _text_byline(page, low, high)
        if names:
            return names
    return []


def _linked_names(page: Page, links: list[Any], first: int, last: int) -> list[str]:
    """The names of the author ``links`` in text nodes ``first`` .. ``last``, in the first one's block."""
    byline: range | None = None
    names: list[str] = []
    seen: set[str] = set()
    for link in links:
        span = page.text_range(link)
        if not span:
            continue
        if span.start > (last if byline is None else byline.stop - 1):
            break
        if span.start < (first if byline is None else byline.start) or not _links_an_author(link):
            continue
        if next(link.iterdescendants("a"), None) is not None:
            continue  # a link around other links (a byline wrapped in its first author's link): theirs count
        href = (link.get("href") or "").strip()
        name = _name(collapse(" ".join(page.text_nodes[k].text for k in span)))
        if not name or href in seen or page.is_hidden(link) or _credited_otherwise(page, span.start):
            continue
        seen.add(href)
        if byline is None:
            byline = page.text_range(_block_of(page, link))
        if name.casefold() not in (n.casefold() for n in names):
            names.append(name)
            if len(names) == MAX_AUTHORS:
                break
    return names


def _text_byline(page: Page, first: int, last: int) -> list[str]:
    """The names of a byline written as text ("By Mara Stein and Tom Berg", "Von Anna Weber, Berlin")
    in text nodes ``first`` .. ``last``: a "By" word, then capitalized names up to a comma or a
    separator. Only one such byline in reach: several ("By Ebern Designs", "By Charlton Home" on a
    product list) are no byline of the page."""
    tns = page.text_nodes
    found: list[str] | None = None
    for k in range(first, min(last, len(tns) - 1) + 1):
        text = tns[k].text
        prefix = _BY.match(text)
        if prefix is None or len(text) > TEXT_BYLINE_CHARS or (prefix.group(1) or "").lower() in _LINK_ONLY:
            continue
        rest = text[prefix.end() :].strip()
        if (prefix.group(1) or "").lower() == "von" and rest[:1].islower():
            continue  # "von der Leyen": a name's particle, not "by"
        if not rest and k + 1 <= last:
            rest = tns[k + 1].text  # "By" and the name in elements of their own
        names = [n for n in (_strict_name(part) for part in _AND.split(_CUT.split(rest, 1)[0])) if n]
        if not names:
            continue
        if found is not None and names != found:
            return []
        found = names
    return (found or [])[:MAX_AUTHORS]


def _strict_name(text: str) -> str | None:
    """``text`` as a name written out: two to five words, each capitalized or a particle (van, de,
    bin...), or all in capitals; a sentence ("By Course or Type") is none."""
    name = _name(text)
    if name is None:
        return None
    words = name.split()
    if not 2 <= len(words) <= 5:
        return None
    if name.isupper() or all(w[0].isupper() or w in _PARTICLES for w in words):
        return name
    return None


def story_start(page: Page, headline: int, content: Sequence[int]) -> int:
    """The first text node after the headline that is a line of prose (STORY_LINE_CHARS, not a
    picture's caption), else the end of the content after the headline (a short post's two lines),
    else just past the headline."""
    tns = page.text_nodes
    after = [k for k in content if k > headline]
    for k in after:
        if len(tns[k].text) >= STORY_LINE_CHARS and not _in_figure(tns[k].container):
            return k
    return after[-1] + 1 if after else headline + 1


def _in_figure(el: Any) -> bool:
    """``el`` is a picture's caption (inside a ``<figure>``): the picture sits between the headline
    and the byline on many pages, its caption no line of the story."""
    return any(node.tag in ("figure", "figcaption") for node in (el, *el.iterancestors()))


def _block_of(page: Page, link: Any) -> Any:
    """The largest ancestor of ``link`` holding at most BYLINE_MAX_CHARS of text: the byline."""
    block = link
    parent = block.getparent()
    while parent is not None and page.has(parent) and page.text_len(parent) <= BYLINE_MAX_CHARS:
        block, parent = parent, parent.getparent()
    return block


def _credited_otherwise(page: Page, k: int) -> bool:
    """The text just before text node ``k`` credits its name with other work than the story's."""
    before = page.text_nodes[k - 1].text[-40:] if k else ""
    return bool(_OTHER_CREDIT.search(before))


def _links_an_author(link: Any) -> bool:
    """``rel="author"``, a class naming the author ("author", "Author-authorName"), or an address
    whose path has an author segment followed by one more."""
    if "author" in (link.get("rel") or "").lower().split() or _AUTHOR_CLASS.search(link.get("class") or ""):
        return True
    href = (link.get("href") or "").strip()
    if not href or href.startswith(("#", "mailto:", "javascript:")):
        return False
    try:
        path = urlsplit(href).path
    except ValueError:
        return False
    segments = [s for s in path.lower().split("/") if s]
    return any(s in _AUTHOR_PATHS for s in segments[:-1])


def _name(text: str) -> str | None:
    """``text`` as a person's (or a desk's) name, or None: "By Mara Stein" -> "Mara Stein"."""
    found = _BY.match(text)
    if found and ((found.group(1) or "").lower() != "von" or text[found.end() : found.end() + 1].isupper()):
        text = text[found.end() :]
    name = text.split(" (", 1)[0].strip(" ,;:·|-–—")  # "Ann Lee (Brussels bureau)": the name
    if not name or len(name) > MAX_NAME_CHARS or _NOT_A_NAME.search(name):
        return None
    words = name.split()
    if len(words) > MAX_NAME_WORDS or not any(ch.isalpha() for ch in name):
        return None
    if any(word.casefold().strip(".,:") in _LINK_WORDS for word in words):
        return None
    return name
