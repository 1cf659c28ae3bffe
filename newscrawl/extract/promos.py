"""The site's promotion closing an article: "Subscribe to our newsletter", "Follow us on Instagram",
"Download our app", "Suscríbete a nuestro canal de Telegram". Such lines sit inside the article's
container, after its last paragraph, so NCE keeps them; they invite the reader to the site's
channels and are no part of the story (docs/decisions/body-news.md, "Promotion closing the text").
"""

from __future__ import annotations

import re
from typing import Any

from newscrawl.extract.titledate import block_of
from newscrawl.page import Page

PROMO_MAX_CHARS = 300  # a closing line longer than this is the author's own text, whatever it asks
# the short lines of an offer after its promotion line ("Monthly", "$39/month Get Started") go with it
OFFER_LINE_CHARS = 50
# Words with which a site asks the reader to subscribe, sign up, follow, join, support or download,
# in the languages of the development sets (en, de, es, fr, pt, it, pl, nl)
_PROMO = re.compile(
    r"\b(?:"
    r"subscribe|sign up|newsletter|follow us|download (?:the|our)|join (?:us|our)|support (?:us|our)|donate|"
    r"abonn|folgen sie|jetzt (?:abonnieren|registrieren)|"
    r"suscr[ií]b|s[ií]guenos|[úu]nete|hazte|canal de (?:telegram|whatsapp|youtube)|"
    r"suivez-nous|inscrivez|assine|siga-nos|inscreva|iscriviti|seguici|abbona|"
    r"zapraszamy|subskryp|obserwuj|volg ons|schrijf je in"
    r")",
    re.IGNORECASE,
)


def is_promo(text: str) -> bool:
    """A short line that asks the reader to subscribe, follow, join, support or download."""
    return len(text) <= PROMO_MAX_CHARS and _PROMO.search(text) is not None


# A heading that announces other stories of the site ("Related articles", "Zum Weiterlesen",
# "Notas relacionadas"), in the languages of the development sets: the line itself, nothing else
_MORE_STORIES = re.compile(
    r"(?:"
    r"related (?:articles?|stories|posts|content|reading|coverage|news)|read next|"
    r"more from\b.*|more (?:stories|news|articles)|more on this (?:story|topic)|you (?:may|might) also like|"
    r"recommended (?:for you|stories|articles|reading)|"
    r"(?:zum )?weiterlesen|mehr (?:zum thema|themen|dazu|artikel)|auch interessant|"
    r"(?:ähnliche|weitere) (?:beiträge|artikel)\b.*|das könnte (?:dich|sie) auch interessieren|lesen sie auch|"
    r"(?:notas|noticias|artículos) relacionad[oa]s|te puede interesar|lee también|más noticias|"
    r"(?:à )?lire aussi|sur le même sujet|articles? similaires|"
    r"leia também|veja também|notícias relacionadas|"
    r"leggi anche|articoli correlati|potrebbe interessarti|"
    r"czytaj (?:też|także)|zobacz (?:też|także)|polecamy|podobne artykuły|"
    r"lees ook|gerelateerde artikelen"
    r")\W*",
    re.IGNORECASE,
)
MORE_STORIES_MAX_CHARS = 60  # a longer line is text that mentions related stories, not their heading


def is_more_stories(text: str) -> bool:
    """A line that is only a heading over other stories of the site."""
    text = text.strip()
    return len(text) <= MORE_STORIES_MAX_CHARS and _MORE_STORIES.fullmatch(text) is not None


def without_more_stories(page: Page, kept: list[int]) -> list[int]:
    """``kept`` up to the first heading over other stories (:func:`is_more_stories`) in its second
    half: what follows it are the site's teasers, kept when NCE found no link list in them (summaries,
    dates, unlinked titles). Nothing is cut when it would take half of the text."""
    tns = page.text_nodes
    blocks = _blocks(page, kept)
    total = sum(len(tns[k].text) for k in kept)
    seen = 0
    for at, (_, nodes) in enumerate(blocks):
        text = " ".join(tns[k].text for k in nodes)
        if at and 2 * seen >= total and is_more_stories(text):
            return [k for _, n in blocks[:at] for k in n]
        seen += len(text)
    return kept


def _blocks(page: Page, kept: list[int]) -> list[tuple[Any, list[int]]]:
    """``kept`` grouped into runs of consecutive text nodes of one block."""
    tns = page.text_nodes
    blocks: list[tuple[Any, list[int]]] = []
    for k in kept:
        block = block_of(tns[k].container)
        if blocks and blocks[-1][0] is block and blocks[-1][1][-1] == k - 1:
            blocks[-1][1].append(k)
        else:
            blocks.append((block, [k]))
    return blocks


def without_closing_promos(page: Page, kept: list[int]) -> list[int]:
    """``kept`` without the run of promotion lines (whole blocks) that ends it, with the short
    lines (:data:`OFFER_LINE_CHARS`) after the run's first promotion line: a paywall's plans and
    prices ("Unlock this article ...", "Monthly", "$39/month"). The first block always stays,
    and so does the text when the run would take half of it (a page that is all sign-up forms
    is not cut to nothing)."""
    tns = page.text_nodes
    blocks = _blocks(page, kept)
    cut, at, removed, run = len(blocks), len(blocks), 0, 0
    while at > 1:
        text = " ".join(tns[k].text for k in blocks[at - 1][1])
        if is_promo(text):
            cut, removed = at - 1, run + len(text)
        elif len(text) > OFFER_LINE_CHARS:
            break
        at, run = at - 1, run + len(text)
    if cut == len(blocks) or 2 * removed >= sum(len(tns[k].text) for k in kept):
        return kept
    return [k for _, nodes in blocks[:cut] for k in nodes]
