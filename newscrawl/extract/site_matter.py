"""What sits in an article's container but is no part of the story: the site's promotion
("Subscribe to our newsletter", "Follow us on Instagram", "Suscríbete a nuestro canal de
Telegram") and the sections under a closing heading (other stories of the site, a press contact)
after its last paragraph, the labels of the page's chrome (an empty ad slot's, a reading
time, a line of tags) anywhere in it, and the theme's excerpt of the story over its opening. NCE
keeps them as part of the container (docs/decisions/body-news.md, "Promotion closing the text",
"A heading over other stories ends the article", "Labels of the page's chrome are not body text",
"The theme's excerpt over the story").
"""

from __future__ import annotations

import re
from typing import Any

from newscrawl.extract.titledate import block_of
from newscrawl.page import Page

Line = tuple[list[int], str]  # the text nodes of one block's run in the body, and their text
PROMO_MAX_CHARS = 300  # a closing line longer than this is the author's own text, whatever it asks
# the short lines of an offer after its promotion line ("Monthly", "$39/month Get Started") go with it
OFFER_LINE_CHARS = 50
# Words with which a site asks the reader to subscribe, sign up, follow, join, support or download,
# in the languages of the development sets (en, de, es, fr, pt, it, pl, nl), and its copyright line
# ("© 2022 ...", "All rights reserved")
_PROMO = re.compile(
    r"^\s*(?:©|copyright\b)|\b(?:"
    r"subscribe|sign up|newsletter|follow us|"
    r"follow (?!him |her |me |them )[\w ]{1,40} on (?:twitter|facebook|instagram|x|tiktok|linkedin)|"
    r"download (?:the|our)|join (?:us|our)|support (?:us|our)|donate|"
    r"abonn|folgen sie|jetzt (?:abonnieren|registrieren)|"
    r"suscr[ií]b|s[ií]guenos|[úu]nete|hazte|canal de (?:telegram|whatsapp|youtube)|"
    r"suivez-nous|inscrivez|assine|siga-nos|inscreva|iscriviti|seguici|abbona|"
    r"zapraszamy|subskryp|obserwuj|volg ons|schrijf je in|"
    r"all rights reserved|alle rechte vorbehalten|todos los derechos reservados|tous droits réservés|"
    r"todos os direitos reservados|tutti i diritti riservati|wszelkie prawa zastrzeżone|alle rechten voorbehouden|"
    r"copyrighted property"
    r")",
    re.IGNORECASE,
)


def is_promo(text: str) -> bool:
    """A short line that asks the reader to subscribe, follow, join, support or download."""
    return len(text) <= PROMO_MAX_CHARS and _PROMO.search(text) is not None


# A heading over what is not the story: other stories of the site ("Related articles", "Zum
# Weiterlesen", "Notas relacionadas") or the press contact ("Kontakt:"), in the languages of the
# development sets: the line itself, nothing else
_CLOSING_HEADING = re.compile(
    r"(?:"
    r"related (?:articles?|stories|posts|content|reading|coverage|news)\b.*|read next|up next|"
    r"more from\b.*|more in (?:this|the) \w+|more (?:stories|news|articles)|more on this (?:story|topic)|"
    r"you (?:may|might) (?:also )?like|recommended (?:for you|stories|articles|reading)|"
    r"latest (?:news|articles|posts|stories|insights)|about the authors?|"
    r"über (?:den autor|die autorin)|à propos de l'auteur|sobre (?:el|o) autor|"
    r"(?:zum )?weiterlesen|mehr (?:zum thema|themen|dazu|artikel)|auch interessant|"
    r"(?:ähnliche|weitere) (?:beiträge|artikel)\b.*|das könnte (?:dich|sie) auch interessieren|lesen sie auch|"
    r"(?:notas|noticias|artículos) relacionad[oa]s|te puede interesar|lee también|más noticias|"
    r"(?:à )?lire aussi|sur le même sujet|articles? similaires|"
    r"leia também|veja também|notícias relacionadas|"
    r"leggi anche|articoli correlati|potrebbe interessarti|"
    r"czytaj (?:też|także)|zobacz (?:też|także)|polecamy|podobne artykuły|"
    r"lees ook|gerelateerde artikelen|"
    r"(?:presse|medien)?kontakt|(?:press |media )?contacts?|contacto|contato|contatti|"
    r"weitere informationen|zusatzinformationen|(?:more|further) information|más información|"
    r"plus d'informations|mais informações|ulteriori informazioni|meer informatie|więcej informacji"
    r")\W*",
    re.IGNORECASE,
)
CLOSING_HEADING_MAX_CHARS = 60  # a longer line is text that mentions related stories, not their heading


def is_closing_heading(text: str) -> bool:
    """A line that is only a heading over other stories of the site or over a contact box."""
    text = text.strip()
    return len(text) <= CLOSING_HEADING_MAX_CHARS and _CLOSING_HEADING.fullmatch(text) is not None


def _until_closing_heading(lines: list[Line]) -> list[Line]:
    """``lines`` up to the first closing heading (:func:`is_closing_heading`) in their second half:
    what follows it are the site's teasers, kept when NCE found no link list in them (summaries,
    dates, unlinked titles), or a press release's contact box. Nothing is cut when it would take
    half of the text."""
    total = sum(len(text) for _, text in lines)
    seen = 0
    for at, (_, text) in enumerate(lines):
        if at and 2 * seen >= total and is_closing_heading(text):
            return lines[:at]
        seen += len(text)
    return lines


# Labels the page's chrome leaves inside the article, in the languages of the development sets:
# an ad slot's, when its ad is not in the page ("Advertisement", "- Anzeige -", "CONTINUA DEPOIS DA
# PUBLICIDADE"), a reading time ("5 min read"), a byline's label whose name is another block
# ("Edited by"), the heading of a table of contents, a share or print button's, skip links
_CHROME_LABEL = re.compile(
    r"\W*(?:"
    r"advertisement|advertising|story continues below(?: this)? advertisement|"
    r"anzeige|werbung|publicidad|publicité|continua depois da publicidade|publicidade|pubblicità|"
    r"reklama|advertentie|"
    r"(?:reading time|lesezeit|temps de lecture|tiempo de lectura|tempo de leitura)(?:\W+\d+ *min\w*)?|"
    r"\d+ *min\w*\.? *(?:read|lesezeit|de lecture|de lectura|de leitura)|"
    r"(?:written |edited |reviewed |fact[- ]checked )?by|"
    r"table of contents|in this article|on this page|inhaltsverzeichnis|"
    r"share(?: this)?(?: article| story| post| page)?|like this|print(?: this)?(?: article| page)?|"
    r"teilen|drucken|compartir|imprimir|partager|imprimer|condividi|stampa|udostępnij|drukuj|delen|compartilhe|"
    r"(?:(?:jump|skip) to (?:the )?(?:main |primary )?(?:content|navigation|search|footer|menu)\W*)+"
    r")\W*",
    re.IGNORECASE,
)


# A line that files the story under the site's tags or categories ("Tags: Helena, smart thermostat",
# "Filed under:", "Schlagwörter:", "Categoría:", "Κατηγορία:"), up to TAXONOMY_MAX_CHARS
_TAXONOMY = re.compile(
    r"\s*(?:tags?|topics?|filed under|posted (?:in|under)|categor(?:y|ies|ía|ías|ia|ias|ie|ieën)|catégories?|"
    r"schlagw(?:ö|oe)rter|themen|kategori(?:e|en|a)|etiquetas|temas|mots-clés|étiquettes|tag|argomenti|tagi|"
    r"trefwoorden|onderwerpen|κατηγορί(?:α|ες)|ετικέτες)\s*:",
    re.IGNORECASE,
)
TAXONOMY_MAX_CHARS = 200


# A subscriber's offer to gift the article, up to GIFT_LINE_MAX_CHARS ("Gift this article", "As a
# subscriber, you have 10 gift articles to give each month.", "Artikel verschenken", "Offrir l'article")
_GIFT_LINE = re.compile(
    r"\bgift (?:this |the )?(?:article|story)\b|\bgift (?:articles?|links?)\b|"
    r"\b(?:diesen |den )?artikel verschenken|\bgeschenkartikel|\boffrir (?:cet |l['’])article|"
    r"\bregala(?:r)? (?:este|el) art[ií]culo|\bregala (?:questo|l['’])articolo|"
    r"\b(?:presentear|presenteie|ofere[cç]a) (?:este|o) artigo|\bartikel cadeau (?:geven|doen)|\bcadeauartikel|"
    r"\bpodaruj (?:ten )?artyku[łl]",
    re.IGNORECASE,
)
GIFT_LINE_MAX_CHARS = 160


def _chrome(text: str) -> bool:
    """A line that is a label of the page's chrome, its taxonomy line or a gift-article offer."""
    return (
        _CHROME_LABEL.fullmatch(text) is not None
        or (len(text) <= TAXONOMY_MAX_CHARS and _TAXONOMY.match(text) is not None)
        or (len(text) <= GIFT_LINE_MAX_CHARS and _GIFT_LINE.search(text) is not None)
    )


def _without_chrome_labels(lines: list[Line]) -> list[Line]:
    """``lines`` without those that are only a label of the page's chrome, wherever they sit."""
    left = [line for line in lines if not _chrome(line[1])]
    return left if left else lines


def _without_closing_promos(lines: list[Line]) -> list[Line]:
    """``lines`` without the run of promotion lines that ends them, with the short lines
    (:data:`OFFER_LINE_CHARS`) after the run's first promotion line: a paywall's plans and prices
    ("Unlock this article ...", "Monthly", "$39/month"). The first line always stays, and so does
    the text when the run would take half of it (a page that is all sign-up forms is not cut to
    nothing)."""
    cut, at, removed, run = len(lines), len(lines), 0, 0
    while at > 1:
        text = lines[at - 1][1]
        if is_promo(text):
            cut, removed = at - 1, run + len(text)
        elif len(text) > OFFER_LINE_CHARS:
            break
        at, run = at - 1, run + len(text)
    if cut == len(lines) or 2 * removed >= sum(len(text) for _, text in lines):
        return lines
    return lines[:cut]


# An excerpt's cut: "…", "...", "[…]", "[...]", "(…)" (the CMS's teaser of the story, shown over it)
_ELLIPSIS = re.compile(r"\s*(?:\[\s*(?:…|\.{3})\s*\]|\(\s*(?:…|\.{3})\s*\)|…|\.{3,})")
EXCERPT_MIN_CHARS = 40  # a shorter piece before an ellipsis is no excerpt of the text ("Wait...")


def _excerpt_pieces(text: str) -> list[str] | None:
    """The pieces of a line made only of text cut with an ellipsis ("... leave their home…"), each
    at least EXCERPT_MIN_CHARS long; None for any other line."""
    if "…" not in text and "..." not in text:
        return None
    pieces = _ELLIPSIS.split(text.strip())
    if pieces[-1].strip():  # text after the last cut: a sentence with an ellipsis in it
        return None
    pieces = ["".join(piece.split()) for piece in pieces[:-1]]  # a theme's excerpt drops the breaks
    return pieces if all(len(piece) >= EXCERPT_MIN_CHARS for piece in pieces) else None


def _excerpt_of(pieces: list[str], text: str) -> bool:
    """The pieces are cut from the start of ``text`` (its breaks dropped): the first opens it, the
    others ("Who knows… Maybe ...", a second excerpt) are in it, and it goes on after them."""
    return len(text) > len(pieces[0]) and text.startswith(pieces[0]) and all(p in text for p in pieces[1:])


def _without_excerpts(lines: list[Line]) -> list[Line]:
    """``lines`` without the excerpts of the story: lines of text cut with an ellipsis ("Every year,
    hundreds of students leave their home…") right before the text that each piece opens (the
    teaser a theme shows over the article it opens, its paragraphs run together)."""
    drop: set[int] = set()
    at = 0
    while at < len(lines):
        run: list[tuple[int, list[str]]] = []
        while at < len(lines) and (pieces := _excerpt_pieces(lines[at][1])) is not None:
            run.append((at, pieces))
            at += 1
        if run and at < len(lines):
            longest = max(sum(map(len, pieces)) for _, pieces in run)
            full, end = "", at
            # the text that follows, breaks dropped, with room for the cuts between the pieces
            while end < len(lines) and len(full) <= 2 * longest:
                full += "".join(lines[end][1].split())
                end += 1
            drop.update(i for i, pieces in run if _excerpt_of(pieces, full))
        at += 1
    return [line for i, line in enumerate(lines) if i not in drop] if drop else lines


def without_site_matter(page: Page, kept: list[int]) -> list[int]:
    """``kept`` (the body's text nodes) without the story's excerpt, the chrome's labels, the closing
    section and the closing promotion; the runs of one block are built once for the four."""
    tns = page.text_nodes
    runs: list[tuple[Any, list[int]]] = []
    for k in kept:
        block = block_of(tns[k].container)
        if runs and runs[-1][0] is block and runs[-1][1][-1] == k - 1:
            runs[-1][1].append(k)
        else:
            runs.append((block, [k]))
    lines = [(nodes, " ".join(tns[k].text for k in nodes)) for _, nodes in runs]
    kept_lines = _without_closing_promos(_until_closing_heading(_without_chrome_labels(_without_excerpts(lines))))
    if len(kept_lines) == len(lines):
        return kept
    return [k for nodes, _ in kept_lines for k in nodes]
