"""A page's language: declared tags normalized, and read from the text when nothing is declared."""

from __future__ import annotations

import pytest

from newscrawl.extract import extract
from newscrawl.extract.language import normalized_tag, text_language


@pytest.mark.parametrize(
    ("declared", "tag"),
    [
        ("en", "en"),
        ("en_US", "en-US"),
        ("EN-gb", "en-GB"),
        ("De", "de"),
        ("DE, AT, CH", "de"),
        ("English", "en"),
        ("zh-hant-tw", "zh-Hant-TW"),
        ("pt-br", "pt-BR"),
        ("{{ page.lang }}", None),
        ("x-default", None),
        ("", None),
        (None, None),
    ],
)
def test_a_declared_language_reads_as_a_tag(declared, tag):
    assert normalized_tag(declared) == tag


TEXTS = {
    "en": "The city council voted on Tuesday night to approve a new plan for the harbour district, ending two "
    "years of debate over how the old docks should be used. Residents who spoke at the meeting were divided, "
    "and the mayor said that construction could begin next spring if the funding is approved.",
    "de": "Der Stadtrat hat am Dienstagabend einen neuen Plan für das Hafenviertel beschlossen und damit eine "
    "zwei Jahre lange Debatte beendet. Die Bürger, die bei der Sitzung gesprochen haben, sind sich nicht "
    "einig, und der Bürgermeister sagte, dass der Bau im nächsten Frühjahr beginnen könnte.",
    "fr": "Le conseil municipal a approuvé mardi soir un nouveau plan pour le quartier du port, mettant fin à "
    "deux ans de débat sur l'avenir des anciens quais. Les habitants qui ont pris la parole étaient divisés, "
    "et le maire a dit que les travaux pourraient commencer au printemps prochain.",
    "es": "El ayuntamiento aprobó el martes por la noche un nuevo plan para el barrio del puerto, con lo que "
    "terminan dos años de debate sobre el uso de los viejos muelles. Los vecinos que hablaron en la reunión "
    "estaban divididos, y el alcalde dijo que las obras podrían empezar la próxima primavera.",
    "it": "Il consiglio comunale ha approvato martedì sera un nuovo piano per il quartiere del porto, mettendo "
    "fine a due anni di dibattito sull'uso delle vecchie banchine. I residenti che sono intervenuti alla "
    "riunione erano divisi, e il sindaco ha detto che i lavori potrebbero iniziare la prossima primavera.",
    "pt": "A câmara municipal aprovou na terça-feira à noite um novo plano para o bairro do porto, pondo fim a "
    "dois anos de debate sobre o uso das antigas docas. Os moradores que falaram na reunião estavam "
    "divididos, e o prefeito disse que as obras podem começar na próxima primavera.",
    "nl": "De gemeenteraad heeft dinsdagavond een nieuw plan voor de havenwijk goedgekeurd, waarmee een einde "
    "komt aan twee jaar debat over het gebruik van de oude dokken. De bewoners die op de vergadering "
    "spraken waren verdeeld, en de burgemeester zei dat de bouw volgend voorjaar kan beginnen.",
    "pl": "Rada miasta zatwierdziła we wtorek wieczorem nowy plan dla dzielnicy portowej, co kończy dwa lata "
    "sporów o to, jak wykorzystać stare doki. Mieszkańcy, którzy zabrali głos na posiedzeniu, byli "
    "podzieleni, a burmistrz powiedział, że budowa może się zacząć już na wiosnę.",
    "el": "Το δημοτικό συμβούλιο ενέκρινε την Τρίτη το βράδυ ένα νέο σχέδιο για την περιοχή του λιμανιού, "
    "βάζοντας τέλος σε δύο χρόνια συζητήσεων για τη χρήση των παλιών αποβαθρών.",
    "ru": "Городской совет во вторник вечером одобрил новый план для портового района, и это положило конец "
    "двухлетним спорам о том, как использовать старые доки. Жители, которые выступили на заседании, "
    "разошлись во мнениях, а мэр сказал, что стройка может начаться весной.",
    "ja": "市議会は火曜日の夜、港湾地区の新しい計画を承認し、古い埠頭の使い方をめぐる二年間の議論に終止符を打った。",
    "zh": "市议会周二晚间批准了港区的新规划，结束了关于旧码头用途的两年争论。",
    "ko": "시의회는 화요일 밤 항구 지구에 대한 새로운 계획을 승인하여 오래된 부두의 사용을 둘러싼 2년간의 논쟁을 끝냈다.",
}


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_a_text_is_read_in_its_language(language):
    assert text_language(TEXTS[language]) == language


def test_a_short_or_mixed_text_has_no_language():
    assert text_language("Home | News | Sport | Contact") is None
    assert text_language("12.03.2024 14:05") is None
    # as many German as English function words: neither leads by the margin
    assert text_language("der Hafen und das Dock, the harbour and the dock, " * 6) is None
    assert text_language("der Hafen und das Dock, der Stadtrat und die Stadt, the harbour, " * 6) == "de"


PARAS = [TEXTS["es"], TEXTS["es"].replace("martes", "miércoles")]


def _page(html_attrs: str = "", head: str = "") -> str:
    body = "".join(f"<p>{p}</p>" for p in PARAS)
    return (
        f"<html{html_attrs}><head><title>El plan del puerto</title>{head}</head><body><article>"
        f"<h1>El ayuntamiento aprueba el plan del puerto</h1><p>Publicado el 03/05/2022</p>{body}</article>"
        "</body></html>"
    )


def test_a_page_declaring_no_language_is_read_for_one():
    art = extract(_page(), "https://puerto.example/noticias/plan")
    assert art.language == "es"
    assert art.provenance["language"]["method"] == "text"
    # the language it was read in orders the slash date: 3 May, not March 5
    assert art.published == "2022-05-03"


def test_a_declared_language_is_kept_and_normalized():
    art = extract(_page(' lang="es_mx"'), "https://puerto.example/noticias/plan")
    assert art.language == "es-MX"
    assert art.provenance["language"]["method"].startswith("metadata:")
    # an XHTML page's xml:lang, which the HTML parser keeps under its literal name
    xhtml = extract(_page(' xmlns="http://www.w3.org/1999/xhtml" xml:lang="es"'), "https://puerto.example/a")
    assert xhtml.language == "es"
    assert xhtml.provenance["language"]["method"] == "metadata:html"
    # a placeholder is no declaration: the text decides
    placeholder = extract(_page(' lang="{{lang}}"'), "https://puerto.example/a")
    assert placeholder.language == "es"
    assert placeholder.provenance["language"]["method"] == "text"
