"""A page's language: its declared tag, normalized, or, when it declares none, read from its text.

Declared values come in many spellings ("en_US", "EN-us", "English", "de, at, ch"); each is read as
a BCP 47 tag (primary subtag lower case, region upper case) or dropped when it is none, so the next
declaration gets its turn. A page declaring nothing is read by its script (a script written by one
language: Greek, Hangul, Thai, kana...) and, for the scripts many languages share, by its most
frequent words: every language has a few dozen function words that make up a third of its running
text and few of them are words of another. No model file and no dependency: a list of words per
language, with the lowest word share and margin over the runner-up that a text must show.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter

_TAG = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]{1,8})*")
_NAMES = {
    "english": "en",
    "german": "de",
    "deutsch": "de",
    "french": "fr",
    "français": "fr",
    "francais": "fr",
    "spanish": "es",
    "español": "es",
    "espanol": "es",
    "italian": "it",
    "italiano": "it",
    "portuguese": "pt",
    "português": "pt",
    "portugues": "pt",
    "dutch": "nl",
    "nederlands": "nl",
    "polish": "pl",
    "polski": "pl",
    "russian": "ru",
    "greek": "el",
    "japanese": "ja",
    "chinese": "zh",
}


def normalized_tag(value: str | None) -> str | None:
    """``value`` as a language tag ("en_us" -> "en-US", "English" -> "en", "de, at, ch" -> "de"),
    None when it is no tag (a template placeholder, a private-use "x-..." code)."""
    if not value:
        return None
    first = re.split(r"[,;\s]+", value.strip(), maxsplit=1)[0].replace("_", "-").lower()
    if first in _NAMES:
        return _NAMES[first]
    if not _TAG.fullmatch(first):
        return None
    primary, *rest = first.split("-")
    subtags = [s.upper() if len(s) == 2 else s.title() if len(s) == 4 and s.isalpha() else s for s in rest]
    return "-".join([primary, *subtags])


# Scripts that one language writes (the others of the script are rare on the web); code points by
# block start. Han, kana and Hangul are told apart below: kana in a Han text makes it Japanese.
_BLOCKS: list[tuple[int, str | None]] = [
    (0x0000, None),
    (0x0370, "el"),
    (0x0400, "cyrillic"),
    (0x0530, "hy"),
    (0x0590, "he"),
    (0x0600, "arabic"),
    (0x0700, None),
    (0x0900, "devanagari"),
    (0x0980, "bn"),
    (0x0A00, "pa"),
    (0x0A80, "gu"),
    (0x0B00, None),
    (0x0B80, "ta"),
    (0x0C00, "te"),
    (0x0C80, "kn"),
    (0x0D00, "ml"),
    (0x0D80, "si"),
    (0x0E00, "th"),
    (0x0E80, "lo"),
    (0x0F00, None),
    (0x1000, "my"),
    (0x10A0, "ka"),
    (0x1100, "ko"),
    (0x1200, None),
    (0x1780, "km"),
    (0x1800, None),
    (0x1F00, "el"),
    (0x2000, None),
    (0x3040, "kana"),
    (0x3100, None),
    (0x3130, "ko"),
    (0x3190, None),
    (0x3400, "han"),
    (0xA000, None),
    (0xAC00, "ko"),
    (0xD7B0, None),
    (0xF900, "han"),
    (0xFB00, None),
]
_STARTS = [start for start, _ in _BLOCKS]

# The most frequent words of each language's running text, written as the language writes them;
# shared words count for every language listing them, the words of one language decide.
_WORDS = {
    "en": "the and of to in is that for it with as was on be by this are from at or have an not but "
    "they his her which you their has had were been will would said",
    "de": "der die und das ist nicht sich mit den dem ein eine auf für von zu im des auch es wird sind "
    "bei nach aus wie noch werden hat nur oder über",
    "fr": "le la les et des est un une du pour dans que qui pas sur au avec il ce sont par plus ne se "
    "elle ont aux cette mais été",
    "es": "el la los las de que y en un una es por para con del se al lo como más pero sus su fue "
    "también este esta entre sobre",
    "it": "il di che e la un una per non sono del della con le si da gli al nel è anche come più ha "
    "dei alla questo delle nella",
    "pt": "o a os as de que e do da em um uma para com não é por se dos das ao mais na no foi também pelo pela sua seu",
    "nl": "de het een en van is dat op te in niet voor met zijn er ook aan als bij dit wordt om maar "
    "worden naar nog heeft",
    "pl": "i w na z że nie się do jest to o od po jak za przez ale dla co tak już są oraz może jego",
    "cs": "a je se na v že to s z do o jako ale by jsou pro které jeho také podle nebo jsem",
    "sk": "a je sa na v že to s z do o ako ale by sú pre ktoré jeho aj podľa alebo som",
    "sv": "och att det som en är på för med av till den inte har om ett de jag var men kan också",
    "da": "og at det er en til på for med af den ikke som har de var et der også efter kan jeg",
    "no": "og at det er en til på for med av den ikke som har de var et der også etter kan jeg",
    "fi": "ja on ei se että oli hän kun mutta tai myös ovat joka sen kuin ole mukaan vain",
    "hu": "a az és hogy nem is egy meg van de csak már ki volt mint még azt lesz",
    "ro": "și în de la cu a că nu pe o este un din pentru care mai sunt se fost",
    "tr": "ve bir bu da de için ile çok olarak daha gibi en ama olan sonra kadar",
    "id": "dan yang di ini itu dengan untuk dari tidak akan pada juga dalam adalah ke",
    "ca": "el la i de que els les en un una per amb no és del al es va com però més",
    "hr": "i u je da se na za su od s ne kao koji što ili bi će",
    "ru": "и в не на что с он как это по но к из у за от то все был она так",
    "uk": "і в на не що з у до та як це за від але його вона він був",
    "bg": "и на в да се не за че от с е по са като това се",
    "sr": "и у је да се на не за су од са као који што или би",
    "ar": "في من على أن إلى التي الذي عن مع هذا كان هذه أو لا",
    "fa": "و در به از که این را با است می برای آن یک شده",
    "ur": "کے کی میں اور ہے سے کو نے کا یہ پر ہیں",
    "hi": "के है में की और से को का एक यह पर भी नहीं हैं",
    "mr": "आणि आहे या व की हे ते आहेत केले",
    "ne": "र छ को मा गर्न पनि छन् भएको",
}
_SCRIPT_WORDS = {
    "cyrillic": ("ru", "uk", "bg", "sr"),
    "arabic": ("ar", "fa", "ur"),
    "devanagari": ("hi", "mr", "ne"),
}
_LATIN = tuple(code for code in _WORDS if not any(code in group for group in _SCRIPT_WORDS.values()))
_LEXICON: dict[str, tuple[str, ...]] = {}
for _code, _words in _WORDS.items():
    for _word in set(_words.split()):
        _LEXICON[_word] = (*_LEXICON.get(_word, ()), _code)

SAMPLE_CHARS = 2000  # of the text read: some 300 words, where the share of function words has settled
SCRIPT_SAMPLE = 400  # letters of other scripts whose blocks are looked up
MIN_WORDS = 20  # fewer words say nothing reliable
MIN_SHARE = 0.12  # the winner's words as a share of all words (running text of any language: > .25)
MIN_MARGIN = 1.25  # the winner's hits over the runner-up's (da/no, cs/sk, hr/sr share most words)
_WORD = re.compile(r"[^\W\d_]+")


# letters of the scripts in _BLOCKS (Greek and up, without the punctuation and symbol blocks):
# found by one regex scan, so Latin text, most of the web, costs no per-character Python loop
_SCRIPT_LETTERS = re.compile("[\u0370-\u1fff\u3040-\u30ff\u3130-\u318f\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def text_language(text: str) -> str | None:
    """The language ``text`` is written in, by script, then by function words; None when the text
    is too short or no language clearly leads."""
    sample = text[:SAMPLE_CHARS]
    words = _WORD.findall(sample.lower())
    others = _SCRIPT_LETTERS.findall(sample)
    scripts = Counter(_BLOCKS[bisect_right(_STARTS, ord(char)) - 1][1] for char in others[:SCRIPT_SAMPLE])
    scripts.pop(None, None)
    latin = sum(map(len, words)) - len(others)  # letters of the words outside those scripts
    script, letters = scripts.most_common(1)[0] if scripts else (None, 0)
    if len(others) <= latin:
        return _by_words(words, _LATIN)
    if script in ("han", "kana"):
        return "ja" if scripts["kana"] >= 0.1 * (scripts["kana"] + scripts["han"]) else "zh"
    if script in _SCRIPT_WORDS:
        return _by_words(words, _SCRIPT_WORDS[script])
    return script if letters >= MIN_WORDS else None


def _by_words(words: list[str], languages: tuple[str, ...]) -> str | None:
    """Of ``languages``, the one whose function words are MIN_SHARE of ``words`` and MIN_MARGIN
    times the runner-up's; None when the words are too few or no language leads by that much."""
    if len(words) < MIN_WORDS:
        return None
    hits: Counter[str] = Counter()
    wanted = set(languages)
    for word in words:
        for code in _LEXICON.get(word, ()):
            if code in wanted:
                hits[code] += 1
    ranked = hits.most_common(2)
    if not ranked:
        return None
    best, count = ranked[0]
    runner_up = ranked[1][1] if len(ranked) > 1 else 0
    if count < MIN_SHARE * len(words) or count < MIN_MARGIN * runner_up:
        return None
    return best
