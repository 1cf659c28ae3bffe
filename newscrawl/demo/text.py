"""Invented text for the demo site: headlines, paragraphs, names and comments.

Everything is produced from small word pools by a seeded ``random.Random``, so the same seed gives
the same words on every machine (no ``hash()`` of strings, which varies per process). The places,
people and organisations are fictional; no third-party text is copied.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable

FIRST_NAMES = (
    "Ada",
    "Ben",
    "Carla",
    "Dev",
    "Elena",
    "Frank",
    "Grace",
    "Hector",
    "Iris",
    "Jonah",
    "Kara",
    "Luis",
    "Maya",
    "Nils",
    "Opal",
    "Pete",
    "Rosa",
    "Sam",
    "Tessa",
    "Victor",
    "Wren",
    "Yusuf",
)
LAST_NAMES = (
    "Albright",
    "Baptiste",
    "Calloway",
    "Dunmore",
    "Eckhart",
    "Fairweather",
    "Gallo",
    "Holm",
    "Iverson",
    "Jandreau",
    "Kettering",
    "Lindqvist",
    "Mabry",
    "Norcross",
    "Okafor",
    "Prewitt",
    "Quintero",
    "Redfeather",
    "Stoltz",
    "Treadwell",
    "Underhill",
    "Vasquez",
    "Whitcomb",
)
PLACES = (
    "Harlan Falls",
    "Cedar Bluff",
    "Millbrook",
    "Prairie Junction",
    "North Fork",
    "Stony Creek",
    "Larkin",
    "Bellmont",
    "Red Willow",
    "Ashby",
    "Cottonwood Flats",
    "Eagle Butte Crossing",
)
ORGS = {
    "politics": (
        "the county commission",
        "the city council",
        "the state Senate",
        "the House budget committee",
        "the governor's office",
        "the election board",
        "the Red Willow County clerk",
    ),
    "business": (
        "the Prairie Valley Cooperative",
        "the regional chamber of commerce",
        "Larkin Grain & Feed",
        "the Harlan Falls credit union",
        "the state Department of Commerce",
        "a Bellmont bakery",
    ),
    "environment": (
        "the regional water district",
        "the Game and Fish department",
        "the conservation district",
        "the Stony Creek watershed council",
        "the state wildlife division",
        "the county weed board",
    ),
    "sports": (
        "the Harlan Falls Hawks booster club",
        "Cedar Bluff High School",
        "Larkin Community College",
        "the Millbrook rodeo club",
        "the North Fork Wranglers' front office",
        "the state activities association",
    ),
    "culture": (
        "the Bellmont library",
        "the county historical society",
        "the Prairie Junction opera house",
        "the Ashby arts council",
        "the Red Willow powwow committee",
        "a Millbrook theatre troupe",
    ),
}
NOUNS = {
    "politics": (
        "budget",
        "property tax cut",
        "road levy",
        "zoning rule",
        "school funding plan",
        "voter ID bill",
        "open meetings law",
        "bridge bond",
    ),
    "business": (
        "grain elevator",
        "new feed mill",
        "main street grocery",
        "wind farm lease",
        "railroad spur",
        "hiring plan",
        "cattle auction",
        "credit program",
    ),
    "environment": (
        "reservoir",
        "prairie dog colony",
        "sage grouse lek",
        "drought plan",
        "groundwater permit",
        "wildfire cleanup",
        "elk migration corridor",
        "river gauge",
    ),
    "sports": (
        "playoff run",
        "new coach",
        "state tournament",
        "rodeo finals",
        "stadium lights",
        "cross-country season",
        "wrestling program",
        "basketball rivalry",
    ),
    "culture": (
        "spring festival",
        "mural project",
        "oral history archive",
        "quilt show",
        "film screening",
        "poetry reading",
        "summer concert series",
        "museum wing",
    ),
}
PAST_VERBS = (
    "approved",
    "rejected",
    "delayed",
    "expanded",
    "unveiled",
    "questioned",
    "funded",
    "revived",
    "defended",
    "reconsidered",
)
PRESENT_VERBS = (
    "approves",
    "rejects",
    "delays",
    "expands",
    "unveils",
    "questions",
    "funds",
    "revives",
    "defends",
    "weighs",
)
TIMES = (
    "on Tuesday",
    "last week",
    "this spring",
    "after a long hearing",
    "late Thursday",
    "earlier this month",
    "before the deadline",
    "over the weekend",
    "on Monday night",
    "during a special session",
    "in a 3-2 vote",
    "without debate",
    "on Friday morning",
)
ROLES = (
    "has farmed near {place} for three decades",
    "chairs the local board",
    "runs a hardware store on Main Street",
    "moved to {place} in 2009",
    "coached in {place} for twelve years",
    "volunteers at the food pantry",
)
QUOTES = (
    "We have waited a long time for this, and people here deserve a straight answer",
    "Nobody in this room thinks the problem solves itself",
    "It is a small town, so everybody feels it when something like this happens",
    "The numbers did not add up last year and they do not add up now",
    "I would rather get it right than get it done fast",
    "Folks out here are patient, but that patience has limits",
    "This is the best news we have had since the flood",
    "My family has been here four generations and we have never seen anything like it",
    "If the state wants to help, it can start by listening",
    "You cannot run a county on promises",
    "We asked for a plan and we got a press release",
    "There is more agreement in this room than people think",
)
SENTENCES = (
    "{Org} {past} the {noun} {time}, a decision that surprised several residents of {place}.",
    "{Person}, who {role}, said the {noun} would change how families plan for the coming year.",
    "\u201c{quote},\u201d {last} said after the meeting.",
    "About {num} people packed the hall in {place} to hear the discussion about the {noun}.",
    "Supporters argued that the {noun} would bring steady work to {place} and the towns around it.",
    "Critics said {org} had not shared enough information about the cost of the {noun}.",
    "The next public hearing on the {noun} is scheduled for {month}, officials said.",
    "Records reviewed by the Ledger show the {noun} has been discussed at least {small} times since {year}.",
    "In {place}, where the nearest hospital is more than an hour away, the debate feels personal.",
    "{Person} pointed out that {org} had tried a similar approach in {year} with mixed results.",
    "Neighbours in {place} have started a petition, and organisers say it has {num} signatures.",
    "The state will review the {noun} before any money changes hands, according to a spokesperson.",
    "For now, {org} says it will keep residents informed through its website and weekly meetings.",
    "Weather has complicated the timeline, with late snow closing roads near {place} twice in {month}.",
    "{Person} has lived in {place} long enough to remember when the {noun} was first proposed.",
    "The vote came {time} after nearly {small} hours of testimony from ranchers, teachers and business owners.",
    "A similar plan in {place} cost roughly ${num},000 more than expected, a consultant told {org}.",
    "Asked whether the {noun} would survive another year, {last} paused before answering.",
    "\u201c{quote}. We will see what happens in {month},\u201d said {Person}, who {role}.",
    "The {noun} is one of {small} items on the agenda, but it drew the largest crowd by far.",
    "Several people who spoke {time} asked {org} to slow down and hold a second hearing in {place}.",
    "Numbers released by {org} show {num} households could be affected by the {noun}.",
    "Not everyone is convinced: a group of residents from {place} plans to challenge the {noun} in court.",
    "Local radio carried the meeting live, and callers lit up the phone lines for {small} hours.",
    "{Org} first took up the {noun} in {year}, when grain prices were higher and budgets looser.",
    "Officials in {place} said they had not been consulted before {org} {past} the {noun}.",
    "The closest comparison may be {place}, where a {noun} of the same size opened in {year}.",
    "By {month}, {org} hopes to have a final answer on the {noun}, {last} said.",
    "Drivers on the county road past {place} will notice survey crews through the end of {month}.",
    "{Person} said {num} letters had arrived at the office about the {noun}, most of them handwritten.",
    "Reporters from the Ledger visited {place} {time} and found opinions split almost evenly.",
    "Even supporters admit the {noun} will not fix everything, but they call it a start.",
    "Whatever the outcome, {org} has promised to publish the full minutes within {small} days.",
    "Schools in {place} may close early on the day of the hearing so families can attend.",
)
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
COMMENT_LINES = (
    "Thanks for covering this, nobody else does.",
    "I was at that meeting and it was even louder than the article says.",
    "Where does the money actually come from? The story should say.",
    "My grandfather would have had a few words about this.",
    "Good reporting. Please follow up in a month.",
    "This has been a problem on our road for years.",
    "Same story every spring, different faces.",
    "Glad somebody finally asked the question out loud.",
)
HANDLES = (
    "prairiedog77",
    "Linda K.",
    "ranchwife",
    "Old Dutch",
    "jmabry",
    "CedarBluffDad",
    "northfork_nell",
    "Hank T.",
    "sagebrush",
    "M. Okafor",
)
TAGS = (
    "Legislature",
    "Water",
    "Agriculture",
    "Schools",
    "Wildlife",
    "Rodeo",
    "Taxes",
    "Energy",
    "Main Street",
    "Public Lands",
    "Health",
    "History",
    "Courts",
    "Elections",
)


def slugify(text: str, max_words: int = 9) -> str:
    """Lower-case, ASCII, hyphenated; long titles are cut to a CMS-like slug length."""
    words = re.findall(r"[a-z0-9]+", text.lower().replace("'", ""))
    return "-".join(words[:max_words])


def person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"


def headline(rng: random.Random, section: str) -> str:
    org = rng.choice(ORGS[section])
    noun = rng.choice(NOUNS[section])
    verb = rng.choice(PRESENT_VERBS)
    place = rng.choice(PLACES)
    shape = rng.randrange(3)
    if shape == 0:
        text = f"{org} {verb} {noun} for {place}"
    elif shape == 1:
        text = f"In {place}, {org} {verb} the {noun}"
    else:
        text = f"{place} {noun}: {org} {verb} plan after months of debate"
    return text[0].upper() + text[1:]


_SIMPLE: dict[str, Callable[[random.Random, str], object]] = {
    "past": lambda rng, section: rng.choice(PAST_VERBS),
    "noun": lambda rng, section: rng.choice(NOUNS[section]),
    "time": lambda rng, section: rng.choice(TIMES),
    "place": lambda rng, section: rng.choice(PLACES),
    "role": lambda rng, section: rng.choice(ROLES).format(place=rng.choice(PLACES)),
    "quote": lambda rng, section: rng.choice(QUOTES),
    "num": lambda rng, section: rng.randrange(40, 900),
    "small": lambda rng, section: rng.randrange(3, 12),
    "month": lambda rng, section: rng.choice(MONTHS),
    "year": lambda rng, section: rng.randrange(2009, 2024),
}
# the fields each template uses, sorted so draws happen in the same order in every process
_FIELDS = {t: sorted({f for _, f, _, _ in string.Formatter().parse(t) if f}) for t in SENTENCES}


def sentence(rng: random.Random, section: str, template: str | None = None) -> str:
    """One sentence; only the slots the template uses are drawn (the large site makes millions)."""
    template = template or rng.choice(SENTENCES)
    values: dict[str, object] = {}
    for name in _FIELDS[template]:
        if name in values:
            continue
        if name in ("Org", "org"):
            org = rng.choice(ORGS[section])
            values.update(Org=org[0].upper() + org[1:], org=org)
        elif name in ("Person", "last"):
            full = person(rng)
            values.update(Person=full, last=full.split()[1])
        else:
            values[name] = _SIMPLE[name](rng, section)
    return template.format(**values)


def paragraph(rng: random.Random, section: str) -> str:
    """2-4 sentences from distinct templates (a template twice in a row reads as machine text)."""
    return " ".join(sentence(rng, section, t) for t in rng.sample(SENTENCES, rng.randrange(2, 5)))


def paragraphs(rng: random.Random, section: str, count: int) -> list[str]:
    """Distinct paragraphs (a repeated paragraph would blur body-extraction scores)."""
    out: list[str] = []
    while len(out) < count:
        text = paragraph(rng, section)
        if text not in out:
            out.append(text)
    return out


def comment_text(rng: random.Random) -> str:
    return " ".join(rng.sample(COMMENT_LINES, rng.randrange(1, 3)))
