"""Parse publication dates written for people ("3. März 2021, 10:45 Uhr", "12 marca 2021 r.",
"Updated March 3rd, 2021") or for machines (ISO 8601, RFC 2822, epoch seconds) to ISO 8601.

Our own regex parser rather than dateparser/htmldate: the extractor calls it on many candidate
text nodes per page, and the measurement in docs/decisions.md ("Date parsing") shows it is about
two orders of magnitude faster than dateparser at equal or better accuracy on the dev sets. The
month table covers en, de, fr, es, it, pt, nl, pl, cs, sk, sv, da, no, fi, hu, ro, tr, ru, uk, and
CJK/Korean numeric forms.

Ambiguity rules (documented, not guessed per page):
- ``d.m.y`` and ``d-m-y`` are day-first (nearly every language that writes them so is), unless
  ``dayfirst=False`` is passed (US pages write ``11.03.17`` for November 3).
- ``a/b/y`` is month-first (US) unless ``dayfirst=True`` is passed.
- a reading that is impossible (a "month" above 12) gives way to the other one, whatever the rule.
  A caller that knows the page language can pass ``dayfirst`` (True for most non-English pages,
  False for en-US).
- two-digit years map to 20yy when that is not in the future, else 19yy.
- a date without a day ("March 2021") is not a publication day and is not returned.
- relative forms ("vor 2 Stunden", "yesterday", "3 dni temu") are resolved only when the caller
  passes ``today`` explicitly (the fetch time); without an anchor they return None.
- results before 1990-01-01 or after today + 1 day are rejected; if a text holds several dates,
  one introduced by a "published" word wins, then the first not introduced by an "updated" word.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, date, datetime, timedelta
from urllib.parse import unquote, urlsplit

__all__ = [
    "MIN_DATE",
    "cued_date",
    "find_date_in_url",
    "is_copyright",
    "is_date_label",
    "is_publish_label",
    "other_reading",
    "padded_url_date",
    "parse_date",
    "parse_machine_date",
]

MIN_DATE = date(1990, 1, 1)
_MAX_SCAN = 400  # characters of a text node examined; date nodes are short

_MONTHS_RAW: dict[int, str] = {
    1: "january jan janv janvier januar jänner jaenner enero ene gennaio gen janeiro januari "
    "stycznia styczen sty ledna leden januára január tammikuuta tammikuu ianuarie ian ocak "
    "января январь янв січня січень jän",
    2: "february feb febr februar feber février fevrier fév fev févr fevr febrero febbraio fevereiro "
    "februari lutego luty lut února unor únor februára február helmikuuta helmikuu februarie "
    "şubat subat февраля февраль фев лютого лютий",
    3: "march mar märz maerz marz mrz mars marzo março marco maart mrt marca marzec března brezna "
    "březen marca marec március maaliskuuta maaliskuu martie mart марта март березня березень",
    4: "april apr avril avr abril abr aprile aprilie kwietnia kwiecien kwi dubna duben apríla "
    "április huhtikuuta huhtikuu nisan апреля апрель апр квітня квітень",
    5: "may mai mayo maggio mag maio mei maja maj května kveten květen mája máj május toukokuuta "
    "toukokuu mayıs mayis мая май травня травень",
    6: "june jun juin juni junio giugno giu junho czerwca czerwiec cze června cerven červen júna jún "
    "június kesäkuuta kesäkuu iunie iun haziran июня июнь червня червень",
    7: "july jul juil juillet juli julio luglio lug julho lipca lipiec lip července cervenec "
    "červenec júla júl július heinäkuuta heinäkuu iulie iul temmuz июля июль липня липень",
    8: "august aug août aout agosto ago augustus augusti sierpnia sierpien sie srpna srpen "
    "augusta augusztus elokuuta elokuu ağustos agustos августа август авг серпня серпень",
    9: "september sep sept septembre septiembre setiembre settembre set setembro września wrzesien "
    "wrz září zari septembra szeptember syyskuuta syyskuu septembrie eylül eylul сентября "
    "сентябрь сен вересня вересень",
    10: "october oct octobre octubre ottobre ott outubro out oktober okt października pazdziernik "
    "paź paz října rijna říjen rijen októbra október lokakuuta lokakuu octombrie ekim "
    "октября октябрь окт жовтня жовтень",
    11: "november nov novembre noviembre novembro listopada listopad lis listopadu novembra "
    "marraskuuta marraskuu noiembrie kasım kasim ноября ноябрь ноя листопада листопад",
    12: "december dec décembre decembre diciembre dic dicembre dezember dez dezembro grudnia "
    "grudzien gru prosince prosinec decembra december joulukuuta joulukuu decembrie aralık "
    "aralik декабря декабрь дек грудня грудень",
}


def _fold(text: str) -> str:
    """Lower-case and strip accents so "März", "marz" and "MÄRZ" match one table entry."""
    text = text.lower()
    if text.isascii():
        return text
    text = text.replace("ı", "i").replace("ł", "l")
    decomposed = unicodedata.normalize("NFKD", text)
    # NFC again so Hangul syllables (decomposed into jamo by NFKD) match the table.
    return unicodedata.normalize("NFC", "".join(ch for ch in decomposed if not unicodedata.combining(ch)))


_MONTHS: dict[str, int] = {}
for _number, _names in _MONTHS_RAW.items():
    for _name in _names.split():
        _MONTHS[_fold(_name)] = _number

_MONTH_ALT = "|".join(sorted((re.escape(m) for m in _MONTHS), key=len, reverse=True))
_MONTH = rf"(?P<mon>{_MONTH_ALT})\b\.?"
_DAY = r"(?P<day>[0-3]?\d)"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_SUFFIX = r"(?:st|nd|rd|th|er|e|o|a|º|ª)?\.?"

# Each pattern names day/mon/year groups; mon is a number or a month word.
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "ymd",
        re.compile(
            r"(?<![\d.])(?P<year>(?:19|20)\d\d)(?P<sep>[-/.])(?P<mon>[01]?\d)(?P=sep)(?P<day>[0-3]?\d)(?!\d)"
            r"(?:[t ]+(?P<hh>[012]?\d):(?P<mi>[0-5]\d)(?::(?P<ss>[0-5]\d))?(?:[.,]\d+)?"
            r"\s*(?P<tz>z|utc|gmt|[+-][01]\d:?[0-5]\d)?)?"
        ),
    ),
    (
        "ymd",
        re.compile(
            r"(?<!\d)(?P<year>(?:19|20)\d\d)\s*[年년.]\s*(?P<mon>[01]?\d)\s*[月월.]\s*"
            r"(?P<day>[0-3]?\d)(?!\d)"
        ),
    ),
    ("dmy", re.compile(r"(?<![\d.])(?P<day>[0-3]?\d)\.\s?(?P<mon>[01]?\d)\.\s?(?P<year>(?:19|20)\d\d)(?!\d)")),
    # d.mm.yy also with a one-digit day ("Kultur, 2.11.22"); the month keeps two digits and a
    # "v" before it is a version ("1.2.15", "v3.10.12" are no dates)
    ("dmy", re.compile(r"(?<![\d.v])(?P<day>[0-3]?\d)\.(?P<mon>[01]\d)\.(?P<year>\d\d)(?![\d.])")),
    ("dmy", re.compile(r"(?<![\d-])(?P<day>[0-3]?\d)-(?P<mon>[01]?\d)-(?P<year>(?:19|20)\d\d)(?!\d)")),
    ("slash", re.compile(r"(?<![\d/])(?P<a>[0-3]?\d)/(?P<b>[0-3]?\d)/(?P<year>(?:19|20)?\d\d)(?![\d/])")),
    (
        "word",
        re.compile(
            rf"(?<!\d){_DAY}{_SUFFIX}\s*[-/]?\s*(?:de\s+|of\s+)?{_MONTH}"
            rf"(?:,?\s*|\s*[-/]\s*)(?:de\s+|del\s+)?{_YEAR}(?!\d)"
        ),
    ),
    ("word", re.compile(rf"\b{_MONTH}\s*{_DAY}{_SUFFIX},?\s+{_YEAR}(?!\d)")),
    ("word", re.compile(rf"(?<!\d){_YEAR}\.?\s+{_MONTH}\s*{_DAY}\b")),
]
_TIME = re.compile(
    r"[\s,|/\u00b7\u2022\u2013\u2014-]*(?:(?:at|um|a|a las|alle|ore|o|godz|kl|klo|v|as|om|в)\b\.?\s*)?"
    r"(?P<hh>[012]?\d)[:h](?P<mi>[0-5]\d)(?::(?P<ss>[0-5]\d))?\s*(?P<ampm>[ap]\.?\s?m\b\.?)?"
)
_PUBLISH_WORDS = re.compile(
    r"(publi|veroffentlicht|erschienen|erstellt|opublikowan|gepubliceerd|pubblicat|creat|posted|"
    r"publikovan|vydano|dodano|utworzono)[^\d]{0,25}$"
)
# the words, folded, that call a date an edit's, in the languages of the development sets
_UPDATE_STEMS = (
    r"update\w*|aktualisiert|geandert|modifi\w*|mis a jour|actualiza\w*|aggiornat\w*|zaktualizowan\w*|"
    r"bijgewerkt|atualizad\w*|aktualizovan\w*|edited|revised"
)
_UPDATE_WORDS = re.compile(rf"({_UPDATE_STEMS}|last)[^\d]{{0,25}}$")
# Every pattern above needs a four-digit 19xx/20xx year or a numeric d.m.yy-like group: a cheap
# test that turns away most candidate text (prices, counts, clock times) before the full scan.
_QUICK = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)|\d[./-]\d\d?[./-]\d\d")

_RELATIVE = re.compile(
    r"(?:(?:vor|hace|il y a|ha|pred)\s+)?(?P<n>\d+|an?|one|ein(?:em|er)?)\s*"
    r"(?P<unit>min\w*|std\.?|stunde\w*|hour\w*|hr\w*|heure\w*|hora\w*|or[ae]\b|uur|godzin\w*|hodin\w*|"
    r"day\w*|tag\w*|jour\w*|dia\w*|giorn\w*|dag\w*|dni|dzien|dnem|dny)"
    r"\s*(?:ago|temu|fa|geleden|sitten|atras)?"
)
_RELATIVE_CUE = re.compile(r"\b(ago|vor|hace|il y a|temu|fa|geleden|ha|atras|pred|sitten)\b")
_TODAY_WORDS = re.compile(r"\b(today|heute|aujourd'hui|hoy|oggi|hoje|vandaag|dzisiaj|dzis|dnes|idag|i dag|сегодня)\b")
_YESTERDAY_WORDS = re.compile(r"\b(yesterday|gestern|hier|ayer|ieri|ontem|gisteren|wczoraj|vcera|igar|i gar|вчера)\b")


def _two_digit_year(yy: int, today: date) -> int:
    year = 2000 + yy
    return year if year <= today.year + 1 else 1900 + yy


def _build(year: int, month: int, day: int, today: date) -> date | None:
    try:
        value = date(year, month, day)
    except ValueError:
        return None
    if value < MIN_DATE or value > today + timedelta(days=1):
        return None
    return value


def _with_time(
    value: date, hh: str | None, mi: str | None, ss: str | None, ampm: str | None = None, tz: str | None = None
) -> str:
    if hh is None or mi is None:
        return value.isoformat()
    hour, minute, second = int(hh), int(mi), int(ss or 0)
    if ampm:
        pm = ampm.startswith("p")
        if hour == 12:
            hour = 0 if not pm else 12
        elif pm:
            hour += 12
    if hour > 23:
        return value.isoformat()
    text = f"{value.isoformat()}T{hour:02d}:{minute:02d}:{second:02d}"
    if tz:
        tz = tz.upper()
        if tz in ("Z", "UTC", "GMT"):
            text += "+00:00"
        else:
            text += tz if ":" in tz else f"{tz[:3]}:{tz[3:]}"
    return text


def _candidates(folded: str, today: date, dayfirst: bool | None):
    """Yield (start, end, date, match) for every well-formed date in the folded text."""
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(folded):
            groups = m.groupdict()
            year = int(groups["year"])
            if year < 100:
                year = _two_digit_year(year, today)
            if kind in ("slash", "dmy"):
                first, second = ("a", "b") if kind == "slash" else ("day", "mon")
                a, b = int(groups[first]), int(groups[second])
                month_first = dayfirst is False if kind == "dmy" else not dayfirst
                if a > 12:
                    month_first = False
                elif b > 12:
                    month_first = True
                month, day = (a, b) if month_first else (b, a)
            else:
                mon = groups["mon"]
                month = int(mon) if mon.isdigit() else _MONTHS.get(mon.rstrip("."), 0)
                day = int(groups["day"])
            value = _build(year, month, day, today)
            if value is not None:
                yield m.start(), m.end(), value, m


def _render(folded: str, end: int, value: date, m: re.Match[str]) -> str:
    groups = m.groupdict()
    if groups.get("hh"):
        return _with_time(value, groups["hh"], groups["mi"], groups.get("ss"), tz=groups.get("tz"))
    t = _TIME.match(folded, end)
    if t:
        return _with_time(value, t["hh"], t["mi"], t["ss"], t["ampm"])
    return value.isoformat()


def _relative(folded: str, today: date | datetime) -> str | None:
    base = today if isinstance(today, datetime) else None
    day = today.date() if isinstance(today, datetime) else today
    if _YESTERDAY_WORDS.search(folded):
        return (day - timedelta(days=1)).isoformat()
    if _TODAY_WORDS.search(folded):
        return day.isoformat()
    if not _RELATIVE_CUE.search(folded):
        return None
    m = _RELATIVE.search(folded)
    if not m:
        return None
    n = int(m["n"]) if m["n"].isdigit() else 1
    unit = m["unit"]
    if unit.startswith(("min", "std", "stund", "hour", "hr", "heure", "hora", "or", "uur", "godzin", "hodin")):
        hours = n / 60 if unit.startswith("min") else n
        if base is not None:
            return (base - timedelta(hours=hours)).date().isoformat()
        return day.isoformat() if hours < 24 else (day - timedelta(days=int(hours // 24))).isoformat()
    return (day - timedelta(days=n)).isoformat()


def parse_date(text: str, *, today: date | datetime | None = None, dayfirst: bool | None = None) -> str | None:
    """ISO 8601 date (``YYYY-MM-DD``) or datetime (``YYYY-MM-DDTHH:MM:SS[+hh:mm]``) in ``text``, or None.

    ``today`` bounds the future (and anchors relative dates, which are only read when it is given);
    see the module docstring for the ambiguity rules.
    """
    if not text:
        return None
    anchor = today
    if today is None:
        limit = date.today()
    else:
        limit = today.date() if isinstance(today, datetime) else today
    head = text[:_MAX_SCAN]
    if not _QUICK.search(head):
        return _relative(_fold(head), anchor) if anchor is not None else None
    folded = _fold(head)
    found = sorted(_candidates(folded, limit, dayfirst), key=lambda c: (c[0], -c[1]))
    if not found:
        return _relative(folded, anchor) if anchor is not None else None
    chosen = None
    for start, end, value, m in found:
        prefix = folded[max(0, start - 40) : start]
        if _PUBLISH_WORDS.search(prefix):
            chosen = (end, value, m)
            break
    if chosen is None:
        for start, end, value, m in found:
            if not _UPDATE_WORDS.search(folded[max(0, start - 40) : start]):
                chosen = (end, value, m)
                break
    if chosen is None:
        start, end, value, m = found[0]
        chosen = (end, value, m)
    return _render(folded, *chosen)


# A byline that introduces its date: "By Jane Doe on March 12, 2019", "Von Hans Müller am 12. März 2019"
# (the author's name, then the connector the brief's languages use before a date)
_BYLINE_WORDS = re.compile(r"\b(?:by|von|par|por|di|door|przez|av)\b[^\d]{1,40}\b(?:on|am|le|el|il|em|op|dnia|den)\s*$")
_COPYRIGHT = re.compile(r"\u00a9|\(c\)\s*(?:19|20)\d\d|\bcopyright\b|\ball rights reserved\b|\balle rechte\b")


# a text that opens with its date, set off by a bracket or a dash, a place name before it or not:
# "(21. November 2022) Energieverbraucher ...", "BERLIN, 3. März 2021 – Die ...", the dateline of
# press releases and wire copy
_OPENING = re.compile(r"\s*[(\[]?\s*(?:[a-z][a-z .'/-]{1,30},\s*(?:den\s+|le\s+|el\s+)?)?")
_OPENING_END = re.compile(r"\s*(?:[)\]]|[-\u2013\u2014:|]\s)")


def cued_date(text: str, *, dayfirst: bool | None = None) -> str | None:
    """The date a "published" word or a byline introduces in ``text`` ("veröffentlicht am 12. März
    2019", "Posted on March 12, 2019 by", "Par Jean Dupont le 3 mars 2021"), or that opens it set
    off by a bracket or a dash ("(21. November 2022) Die ...", "BERLIN, 3. März 2021 – Die ..."),
    or None when no date of the text is introduced so: a longer text node says its date this way,
    while a bare date in running prose ("the hearing on 12 March 2019") is not the page's."""
    head = text[:_MAX_SCAN]
    if not head or not _QUICK.search(head):
        return None
    folded = _fold(head)
    today = date.today()
    for start, end, value, m in sorted(_candidates(folded, today, dayfirst), key=lambda c: (c[0], -c[1])):
        prefix = folded[max(0, start - 60) : start]
        if (
            _PUBLISH_WORDS.search(prefix[-40:])
            or _BYLINE_WORDS.search(prefix)
            or (_OPENING.fullmatch(folded, 0, start) and _OPENING_END.match(folded, end))
        ):
            return _render(folded, end, value, m)
    return None


def is_copyright(text: str) -> bool:
    """Whether ``text`` is a copyright line ("© 2019 Example Media", "Copyright 2021"): its year,
    or any date in it, is the site's, not the story's."""
    return _COPYRIGHT.search(_fold(text[:_MAX_SCAN])) is not None


_PUBLISH_LABEL = re.compile(
    r"(?:date )?(?:published|publication|posted|publicado|publicada|publie|publiee|veroffentlicht|erschienen|"
    r"opublikowano|gepubliceerd|pubblicato|pubblicata|publikovano)(?: on| am| el| le| il| op| dnia| date)?\s*:?"
)


_UPDATE_WORD = re.compile(rf"\b(?:{_UPDATE_STEMS})")


def names_update(text: str) -> bool:
    """Whether ``text`` says its date is an edit's ("Updated", "Aktualisiert am", "Mis à jour le")."""
    return _UPDATE_WORD.search(_fold(text)) is not None


_UPDATE_LABEL = re.compile(
    rf"(?:date )?(?:last |zuletzt )?(?:{_UPDATE_STEMS}|reviewed)(?: on| am| le| el| il| em| op| dnia| date)?\s*:?"
)


def is_date_label(text: str) -> bool:
    """Whether ``text`` is nothing but the label of a date beside it, a "Published" or an
    "Updated" one ("Last Updated:", "Date Last Reviewed:", "Aktualisiert am")."""
    if len(text) > 30:
        return False
    folded = _fold(text.strip())
    return _PUBLISH_LABEL.fullmatch(folded) is not None or _UPDATE_LABEL.fullmatch(folded) is not None


def is_publish_label(text: str) -> bool:
    """Whether ``text`` is nothing but a "Published" label ("Published on:", "Veröffentlicht am"),
    the kind a page sets beside its date in a separate element."""
    return len(text) <= 30 and _PUBLISH_LABEL.fullmatch(_fold(text.strip())) is not None


def other_reading(text: str | None, value: str | None) -> str | None:
    """``value``'s day and month exchanged (``YYYY-MM-DD``), when ``text``, the text it was read
    from, writes that date as two bare numbers either of which could be the month ("03-09-2026",
    "05/08/22"); None when the text names the month, writes the year first, or day and month are
    equal. The ambiguity rules above pick one reading; a caller with a second source for the day
    (the URL, the visible date) checks the other one against it (docs/decisions.md, "Dates:
    day-month order checked against the page's other dates")."""
    if not text or not value or len(value) < 10:
        return None
    try:
        year, month, day = int(value[:4]), int(value[5:7]), int(value[8:10])
    except ValueError:
        return None
    if month == day or day > 12:
        return None
    folded = _fold(text[:_MAX_SCAN])
    today = date.today()
    for kind, pattern in _PATTERNS:
        if kind not in ("slash", "dmy"):
            continue
        for m in pattern.finditer(folded):
            first, second = (m["a"], m["b"]) if kind == "slash" else (m["day"], m["mon"])
            written = int(m["year"])
            if written < 100:
                written = _two_digit_year(written, today)
            if written == year and {int(first), int(second)} == {month, day}:
                return f"{year:04d}-{day:02d}-{month:02d}"
    return None


_ISO_FULL = re.compile(
    r"\s*(?P<year>\d{4})-(?P<mon>\d\d)-(?P<day>\d\d)"
    r"(?:[T ](?P<hh>\d\d):(?P<mi>\d\d)(?::(?P<ss>\d\d)(?:[.,]\d+)?)?\s*(?P<tz>Z|[+-]\d\d:?\d\d)?)?\s*$",
    re.IGNORECASE,
)


def parse_machine_date(value: str | int | float | None, *, today: date | None = None) -> str | None:
    """Date from a metadata attribute: ISO 8601 (kept with its time and offset), epoch
    seconds/milliseconds, RFC 2822, or anything :func:`parse_date` reads; None when invalid."""
    if value is None or isinstance(value, bool):
        return None
    limit = today or date.today()
    if isinstance(value, (int, float)) or (
        isinstance(value, str) and value.strip().isdigit() and len(value.strip()) in (10, 13)
    ):
        seconds = float(value)
        if seconds > 1e11:
            seconds /= 1000
        try:
            moment = datetime.fromtimestamp(seconds, tz=UTC)
        except (OverflowError, OSError, ValueError):
            return None
        if _build(moment.year, moment.month, moment.day, limit) is None:
            return None
        return moment.isoformat(timespec="seconds")
    if not isinstance(value, str):
        return None
    m = _ISO_FULL.match(value)
    if m:
        parsed = _build(int(m["year"]), int(m["mon"]), int(m["day"]), limit)
        if parsed is None:
            return None
        return _with_time(parsed, m["hh"], m["mi"], m["ss"], tz=m["tz"])
    return parse_date(value, today=None if today is None else today, dayfirst=None)


_URL_DATE = re.compile(
    r"(?<![\d])(?P<year>(?:19|20)\d\d)(?P<sep>[/_.-])(?P<mon>[01]?\d)(?P=sep)(?P<day>[0-3]?\d)(?![\d])"
)
_URL_COMPACT = re.compile(r"(?:^|[/_.-])(?P<year>(?:19|20)\d\d)(?P<mon>[01]\d)(?P<day>[0-3]\d)(?=$|[/_.-])")
# /2023/october/03/, /2019/mar/5/: the month as a word between two slashes (English and the other
# languages of the month table); paths are matched folded, and folded only when a year and a slash
# (_QUICK_YEAR) are in them
_QUICK_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d/")
_URL_WORD_DATE = re.compile(rf"(?<![\d])(?P<year>(?:19|20)\d\d)/(?P<mon>{_MONTH_ALT})/(?P<day>[0-3]?\d)(?=$|[/_.-])")


def find_date_in_url(url: str | None, *, today: date | None = None) -> str | None:
    """``YYYY-MM-DD`` from a URL path such as ``/2021/03/12/slug`` or ``/20210312-slug``; None if
    the path holds no full, valid date (a year and month alone are not a day)."""
    if not url:
        return None
    try:
        path = urlsplit(url).path
    except ValueError:
        return None
    limit = today or date.today()
    for pattern in (_URL_DATE, _URL_COMPACT):
        for m in pattern.finditer(path):
            value = _build(int(m["year"]), int(m["mon"]), int(m["day"]), limit)
            if value is not None:
                return value.isoformat()
    if "/" in path and _QUICK_YEAR.search(path):
        for m in _URL_WORD_DATE.finditer(_fold(unquote(path))):
            value = _build(int(m["year"]), _MONTHS[m["mon"]], int(m["day"]), limit)
            if value is not None:
                return value.isoformat()
    return None


# A URL's date written in full, not a version number or a count in a slug ("/t/2024-4-4-2024-5-0-issue"):
# path segments /2019/10/22/, a zero-padded 2019-10-22 or 20191022, or a month word /2023/october/03/
_URL_PADDED = re.compile(r"(?<![\d])(?:19|20)\d\d(?P<sep>[/_.-])[01]\d(?P=sep)[0-3]\d(?![\d])")
_URL_SEGMENTS = re.compile(r"/(?:19|20)\d\d/[01]?\d/[0-3]?\d(?=/|$)")


def padded_url_date(url: str | None, *, today: date | None = None) -> str | None:
    """:func:`find_date_in_url`'s day, only when the URL writes it in full (path segments, two-digit
    month and day, eight digits or a month word): a day that can outrank the page's metadata
    (docs/decisions/dates-news.md)."""
    day = find_date_in_url(url, today=today)
    if day is None or not url:
        return None
    try:
        path = urlsplit(url).path
    except ValueError:
        return None
    if _URL_PADDED.search(path) or _URL_SEGMENTS.search(path) or _URL_COMPACT.search(path):
        return day
    if "/" in path and _QUICK_YEAR.search(path) and _URL_WORD_DATE.search(_fold(unquote(path))):
        return day
    return None
