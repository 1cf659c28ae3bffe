"""Parsing of the few CSS property values the cascade keeps, into small specified-value forms.

Values are parsed once per stylesheet (or once per distinct ``var()``-substituted string, via an
LRU cache) so that computing a node's style is arithmetic, not parsing. Anything we cannot
understand parses to ``None`` and the declaration is dropped, as a browser drops invalid ones.
"""

from __future__ import annotations

import math
from typing import Any

import tinycss2
from tinycss2 import color4

from newscrawl.textcache import text_cache

# Properties the cascade computes. ``float`` and ``position`` are kept only because they
# blockify ``display`` (a floated <span> computes to display:block).
PROPERTIES = frozenset(
    {
        "font-size",
        "font-weight",
        "font-style",
        "color",
        "font-family",
        "display",
        "visibility",
        "float",
        "position",
    }
)
INHERITED = frozenset({"font-size", "font-weight", "font-style", "color", "font-family", "visibility"})
WIDE_KEYWORDS = frozenset({"inherit", "initial", "unset", "revert", "revert-layer"})

# font-size keywords in px for a 16px "medium" (Chrome's table).
FONT_SIZE_KEYWORDS = {
    "xx-small": 9.0,
    "x-small": 10.0,
    "small": 13.0,
    "medium": 16.0,
    "large": 18.0,
    "x-large": 24.0,
    "xx-large": 32.0,
    "xxx-large": 48.0,
}
ABSOLUTE_UNITS = {
    "px": 1.0,
    "pt": 4.0 / 3.0,
    "pc": 16.0,
    "in": 96.0,
    "cm": 96.0 / 2.54,
    "mm": 96.0 / 25.4,
    "q": 96.0 / 101.6,
}
# Linear combination slots of a length: px + em*parent + rem*root + pct*parent/100 + vw + vh.
_PX, _EM, _REM, _VW, _VH = range(5)
_RELATIVE_UNITS = {
    "em": (_EM, 1.0),
    "rem": (_REM, 1.0),
    "ex": (_EM, 0.5),
    "ch": (_EM, 0.5),
    "cap": (_EM, 0.7),
    "ic": (_EM, 1.0),
    "rex": (_REM, 0.5),
    "rch": (_REM, 0.5),
    "lh": (_EM, 1.2),
    "rlh": (_REM, 1.2),
    "vw": (_VW, 0.01),
    "vh": (_VH, 0.01),
    "svw": (_VW, 0.01),
    "lvw": (_VW, 0.01),
    "dvw": (_VW, 0.01),
    "svh": (_VH, 0.01),
    "lvh": (_VH, 0.01),
    "dvh": (_VH, 0.01),
    "vi": (_VW, 0.01),
    "vb": (_VH, 0.01),
}

GENERIC_FAMILIES = {
    "serif": "serif",
    "sans-serif": "sans-serif",
    "monospace": "monospace",
    "system-ui": "sans-serif",
    "ui-sans-serif": "sans-serif",
    "ui-serif": "serif",
    "ui-monospace": "monospace",
    "ui-rounded": "sans-serif",
    "-apple-system": "sans-serif",
    "blinkmacsystemfont": "sans-serif",
    "cursive": "other",
    "fantasy": "other",
    "emoji": "other",
    "math": "other",
    "fangsong": "serif",
}
_KNOWN_FAMILIES = {
    "serif": (
        "times",
        "times new roman",
        "georgia",
        "garamond",
        "palatino",
        "palatino linotype",
        "book antiqua",
        "cambria",
        "baskerville",
        "merriweather",
        "lora",
        "playfair display",
        "noto serif",
        "pt serif",
        "libre baskerville",
        "source serif pro",
        "roboto slab",
        "crimson text",
        "droid serif",
        "bitter",
        "dejavu serif",
        "liberation serif",
        "charter",
        "bodoni",
        "didot",
        "minion pro",
        "tiempos",
        "nyt cheltenham",
        "publico",
        "spectral",
        "domine",
        "zilla slab",
        "arvo",
        "rockwell",
    ),
    "sans-serif": (
        "arial",
        "helvetica",
        "helvetica neue",
        "verdana",
        "tahoma",
        "trebuchet ms",
        "segoe ui",
        "roboto",
        "open sans",
        "lato",
        "montserrat",
        "source sans pro",
        "noto sans",
        "ubuntu",
        "oxygen",
        "cantarell",
        "fira sans",
        "droid sans",
        "inter",
        "poppins",
        "raleway",
        "nunito",
        "work sans",
        "pt sans",
        "lucida grande",
        "lucida sans",
        "geneva",
        "calibri",
        "franklin gothic",
        "gill sans",
        "futura",
        "avenir",
        "avenir next",
        "dejavu sans",
        "liberation sans",
        "arimo",
        "ibm plex sans",
        "libre franklin",
        "barlow",
        "karla",
        "rubik",
        "mulish",
        "oswald",
        "archivo",
        "manrope",
        "dm sans",
        "public sans",
        "sf pro text",
        "sf pro display",
        "san francisco",
        "proxima nova",
        "gotham",
    ),
    "monospace": (
        "courier",
        "courier new",
        "consolas",
        "monaco",
        "menlo",
        "lucida console",
        "andale mono",
        "dejavu sans mono",
        "liberation mono",
        "source code pro",
        "fira code",
        "fira mono",
        "roboto mono",
        "ibm plex mono",
        "jetbrains mono",
        "sf mono",
        "ubuntu mono",
        "inconsolata",
        "cascadia code",
        "noto sans mono",
    ),
}
FAMILY_CATEGORY = {name: cat for cat, names in _KNOWN_FAMILIES.items() for name in names}

DISPLAY_KEYWORDS = frozenset(
    {
        "none",
        "block",
        "inline",
        "inline-block",
        "flex",
        "inline-flex",
        "grid",
        "inline-grid",
        "table",
        "inline-table",
        "table-row",
        "table-cell",
        "table-row-group",
        "table-header-group",
        "table-footer-group",
        "table-column",
        "table-column-group",
        "table-caption",
        "list-item",
        "contents",
        "flow-root",
        "run-in",
        "ruby",
        "ruby-text",
        "ruby-base",
        "ruby-text-container",
        "ruby-base-container",
        "math",
        "inline-list-item",
    }
)
_DISPLAY_PAIRS = {
    ("block", "flow"): "block",
    ("inline", "flow"): "inline",
    ("inline", "flow-root"): "inline-block",
    ("block", "flex"): "flex",
    ("inline", "flex"): "inline-flex",
    ("block", "grid"): "grid",
    ("inline", "grid"): "inline-grid",
    ("block", "table"): "table",
    ("inline", "table"): "inline-table",
    ("block", "flow-root"): "flow-root",
    ("list-item", "block"): "list-item",
    ("block", "list-item"): "list-item",
    ("list-item", "flow"): "list-item",
    ("flow", "list-item"): "list-item",
}
_FONT_STYLE = {"normal": False, "italic": True, "oblique": True}
_VISIBILITY = frozenset({"visible", "hidden", "collapse"})
_FLOAT = frozenset({"none", "left", "right", "inline-start", "inline-end"})
_POSITION = frozenset({"static", "relative", "absolute", "fixed", "sticky"})
_SYSTEM_FONTS = frozenset({"caption", "icon", "menu", "message-box", "small-caption", "status-bar"})
MAX_CALC_NODES = 64


def significant(tokens: list[Any]) -> list[Any]:
    """Tokens without whitespace and comments."""
    return [t for t in tokens if t.type not in ("whitespace", "comment")]


def has_var(tokens: list[Any]) -> bool:
    """Whether a value contains ``var()`` anywhere (iteratively through nested blocks)."""
    stack = list(tokens)
    while stack:
        token = stack.pop()
        if token.type == "function":
            if token.lower_name == "var":
                return True
            stack.extend(token.arguments)
        elif token.type in ("() block", "[] block", "{} block"):
            stack.extend(token.content)
    return False


# --- lengths ---------------------------------------------------------------------------------------
Length = tuple  # ("lin", (px, em, rem, vw, vh)) | ("min"|"max", [Length...]) | ("clamp", a, b, c)


def _lin(slot: int, value: float) -> tuple:
    coeffs = [0.0] * 5
    coeffs[slot] = value
    return ("lin", tuple(coeffs))


def parse_length(token: Any, *, percent_is_em: bool, quirks_unitless: bool) -> tuple | None:
    """A length-percentage token (or calc()-like function) as a Length expression."""
    budget = [MAX_CALC_NODES]
    return _length(token, percent_is_em, quirks_unitless, budget)


def _length(token: Any, pct_em: bool, unitless: bool, budget: list[int]) -> tuple | None:
    budget[0] -= 1
    if budget[0] < 0:
        return None
    if token.type == "dimension":
        unit = token.lower_unit
        if unit in ABSOLUTE_UNITS:
            return _lin(_PX, token.value * ABSOLUTE_UNITS[unit])
        if unit in _RELATIVE_UNITS:
            slot, factor = _RELATIVE_UNITS[unit]
            return _lin(slot, token.value * factor)
        if unit == "vmin":
            return ("min", [_lin(_VW, token.value * 0.01), _lin(_VH, token.value * 0.01)])
        if unit == "vmax":
            return ("max", [_lin(_VW, token.value * 0.01), _lin(_VH, token.value * 0.01)])
        return None
    if token.type == "percentage":
        return _lin(_EM, token.value / 100.0) if pct_em else None
    if token.type == "number":
        if token.value == 0:
            return _lin(_PX, 0.0)
        return ("quirk", _lin(_PX, token.value)) if unitless else None
    if token.type == "function":
        name = token.lower_name
        args = token.arguments
        if name in ("calc", "-webkit-calc", "-moz-calc"):
            return _calc(significant(args), pct_em, budget)
        if name in ("min", "max", "clamp"):
            parts = [_calc(part, pct_em, budget) for part in _split_commas(args)]
            if not parts or any(p is None for p in parts):
                return None
            if name == "clamp":
                return ("clamp", *parts) if len(parts) == 3 else None
            return (name, parts)
    return None


def _split_commas(tokens: list[Any]) -> list[list[Any]]:
    parts: list[list[Any]] = [[]]
    for token in tokens:
        if token.type == "literal" and token.value == ",":
            parts.append([])
        elif token.type not in ("whitespace", "comment"):
            parts[-1].append(token)
    return parts


def _calc(tokens: list[Any], pct_em: bool, budget: list[int]) -> tuple | None:
    """calc() sum of products, left to right; products only by plain numbers."""
    terms: list[tuple] = []
    sign = 1.0
    i = 0
    expect_operand = True
    while i < len(tokens):
        token = tokens[i]
        if expect_operand:
            operand = _calc_operand(token, pct_em, budget)
            if operand is None:
                return None
            i += 1
            # multiplication/division by numbers
            while i + 1 < len(tokens) and tokens[i].type == "literal" and tokens[i].value in "*/":
                op, other = tokens[i].value, tokens[i + 1]
                if other.type != "number":
                    if op == "*" and isinstance(operand, float):
                        other_len = _calc_operand(other, pct_em, budget)
                        if other_len is None or isinstance(other_len, float):
                            return None
                        operand = _scale(other_len, operand)
                        i += 2
                        continue
                    return None
                if op == "/" and other.value == 0:
                    return None
                factor = other.value if op == "*" else 1.0 / other.value
                operand = operand * factor if isinstance(operand, float) else _scale(operand, factor)
                i += 2
            if isinstance(operand, float):
                operand = _lin(_PX, operand) if operand == 0 else None
                if operand is None:
                    return None
            terms.append(_scale(operand, sign))
            expect_operand = False
        else:
            if token.type == "literal" and token.value in "+-":
                sign = 1.0 if token.value == "+" else -1.0
            else:
                return None
            expect_operand = True
            i += 1
    if not terms or expect_operand:
        return None
    return _sum(terms)


def _calc_operand(token: Any, pct_em: bool, budget: list[int]) -> Any:
    if token.type == "number":
        return float(token.value)
    if token.type == "() block":
        return _calc(significant(token.content), pct_em, budget)
    return _length(token, pct_em, False, budget)


def _scale(length: tuple, factor: float) -> tuple:
    kind = length[0]
    if kind == "lin":
        return ("lin", tuple(c * factor for c in length[1]))
    if kind == "quirk":
        return _scale(length[1], factor)
    if factor < 0 and kind in ("min", "max"):
        return ("max" if kind == "min" else "min", [_scale(p, factor) for p in length[1]])
    if kind in ("min", "max"):
        return (kind, [_scale(p, factor) for p in length[1]])
    return ("scaled", length, factor)


def _sum(terms: list[tuple]) -> tuple:
    if all(t[0] == "lin" for t in terms):
        return ("lin", tuple(sum(c) for c in zip(*(t[1] for t in terms))))
    return ("sum", terms)


def eval_length(length: tuple, em: float, rem: float, viewport: tuple[int, int]) -> float:
    """Evaluate a Length expression to px for a parent font size ``em`` and root size ``rem``."""
    kind = length[0]
    if kind == "lin":
        px, e, r, vw, vh = length[1]
        return px + e * em + r * rem + vw * viewport[0] + vh * viewport[1]
    if kind == "quirk":
        return eval_length(length[1], em, rem, viewport)
    if kind == "min":
        return min(eval_length(p, em, rem, viewport) for p in length[1])
    if kind == "max":
        return max(eval_length(p, em, rem, viewport) for p in length[1])
    if kind == "clamp":
        low, mid, high = (eval_length(p, em, rem, viewport) for p in length[1:])
        return max(low, min(mid, high))
    if kind == "scaled":
        return eval_length(length[1], em, rem, viewport) * length[2]
    if kind == "sum":
        return sum(eval_length(p, em, rem, viewport) for p in length[1])
    raise ValueError(kind)


# --- per-property parsers ---------------------------------------------------------------------------
def parse_value(prop: str, tokens: list[Any]) -> Any:
    """The specified value of ``prop`` from its tokens, or None when invalid.

    CSS-wide keywords come back as ``("wide", keyword)``; a unitless font-size comes back as
    ``("quirk", length)`` (honoured only in quirks-mode documents, like browsers).
    """
    toks = significant(tokens)
    if not toks:
        return None
    if len(toks) == 1 and toks[0].type == "ident" and toks[0].lower_value in WIDE_KEYWORDS:
        return ("wide", toks[0].lower_value)
    parser = _PARSERS.get(prop)
    return parser(toks) if parser else None


def _font_size(toks: list[Any]) -> Any:
    if len(toks) != 1:
        return None
    token = toks[0]
    if token.type == "ident":
        word = token.lower_value
        if word in FONT_SIZE_KEYWORDS:
            return ("kw", word)
        if word in ("larger", "smaller"):
            return (word,)
        return None
    if token.type in ("number", "dimension", "percentage") and token.value < 0:
        return None
    return parse_length(token, percent_is_em=True, quirks_unitless=True)


def _font_weight(toks: list[Any]) -> Any:
    if len(toks) != 1:
        return None
    token = toks[0]
    if token.type == "ident":
        return {"normal": 400, "bold": 700, "bolder": "bolder", "lighter": "lighter"}.get(token.lower_value)
    if token.type == "number" and 1 <= token.value <= 1000:
        return float(token.value)
    return None


def _font_style(toks: list[Any]) -> Any:
    if toks[0].type == "ident" and toks[0].lower_value in _FONT_STYLE:
        return _FONT_STYLE[toks[0].lower_value]
    return None


def _color(toks: list[Any]) -> Any:
    if len(toks) != 1:
        return None
    return parse_color(toks[0])


def parse_color(token: Any) -> str | None:
    """A colour token as "#rrggbb"/"#rrggbbaa", "currentcolor", or None if unsupported."""
    # Quirk: a hex colour without '#' ("color: ff0000") is accepted in quirks mode; ignored here.
    try:
        color = color4.parse_color(token)
    except (ValueError, TypeError, ZeroDivisionError):
        return None
    if color is None:
        return None
    if isinstance(color, str):
        return "currentcolor" if color == "currentcolor" else None
    try:
        srgb = color.to("srgb")
    except (NotImplementedError, ValueError, ZeroDivisionError):
        return None
    channels = []
    for value in srgb.coordinates:
        if value is None or math.isnan(value):
            value = 0.0
        channels.append(max(0, min(255, round(value * 255))))
    alpha = srgb.alpha if srgb.alpha is not None and not math.isnan(srgb.alpha) else 1.0
    text = "#{:02x}{:02x}{:02x}".format(*channels)
    if alpha < 1:
        text += f"{max(0, min(255, round(alpha * 255))):02x}"
    return text


def _font_family(toks: list[Any]) -> Any:
    families: list[str] = []
    current: list[str] = []
    for token in toks:
        if token.type == "literal" and token.value == ",":
            if not current:
                return None
            families.append(" ".join(current))
            current = []
        elif token.type == "string":
            current.append(token.value)
        elif token.type == "ident":
            current.append(token.value)
        else:
            return None
    if not current:
        return None
    families.append(" ".join(current))
    return tuple(f.strip().lower() for f in families)


def family_category(families: tuple[str, ...]) -> str:
    """serif / sans-serif / monospace / other: the first family we can classify."""
    for family in families:
        if family in GENERIC_FAMILIES:
            return GENERIC_FAMILIES[family]
        if family in FAMILY_CATEGORY:
            return FAMILY_CATEGORY[family]
        if "mono" in family or "courier" in family or "code" in family:
            return "monospace"
        if "sans" in family or "grotesk" in family or "gothic" in family:
            return "sans-serif"
        if "serif" in family or "slab" in family:
            return "serif"
    return "other"


def _display(toks: list[Any]) -> Any:
    if not all(t.type == "ident" for t in toks):
        return None
    words = tuple(t.lower_value for t in toks)
    if len(words) == 1:
        return words[0] if words[0] in DISPLAY_KEYWORDS else None
    if len(words) == 2:
        return _DISPLAY_PAIRS.get(words)
    return "list-item" if "list-item" in words and len(words) == 3 else None


def _keyword(allowed: frozenset) -> Any:
    def parse(toks: list[Any]) -> Any:
        if len(toks) == 1 and toks[0].type == "ident" and toks[0].lower_value in allowed:
            return toks[0].lower_value
        return None

    return parse


_PARSERS = {
    "font-size": _font_size,
    "font-weight": _font_weight,
    "font-style": _font_style,
    "color": _color,
    "font-family": _font_family,
    "display": _display,
    "visibility": _keyword(_VISIBILITY),
    "float": _keyword(_FLOAT),
    "position": _keyword(_POSITION),
}


def expand_font(tokens: list[Any]) -> list[tuple[str, Any]] | None:
    """The ``font`` shorthand as (longhand, value) pairs; None when invalid.

    Grammar: [style || variant || weight || stretch]? size [/ line-height]? family. Omitted
    longhands reset to their initial values, as the shorthand requires.
    """
    toks = significant(tokens)
    if not toks:
        return None
    if len(toks) == 1 and toks[0].type == "ident":
        word = toks[0].lower_value
        if word in WIDE_KEYWORDS:
            wide = ("wide", word)
            return [(p, wide) for p in ("font-style", "font-weight", "font-size", "font-family")]
        if word in _SYSTEM_FONTS:
            return [
                ("font-style", False),
                ("font-weight", 400.0),
                ("font-size", ("kw", "small")),
                ("font-family", ("system-ui",)),
            ]
        return None
    style: Any = False
    weight: Any = 400.0
    i = 0
    for _ in range(4):
        if i >= len(toks):
            return None
        token = toks[i]
        if token.type == "ident":
            word = token.lower_value
            if word in ("italic", "oblique"):
                style = True
            elif word in ("bold", "bolder", "lighter"):
                weight = _font_weight([token])
            elif word in ("normal", "small-caps") or word.endswith("condensed") or word.endswith("expanded"):
                pass
            else:
                break
        elif (
            token.type == "number" and 1 <= token.value <= 1000 and i + 1 < len(toks) and toks[i + 1].type != "literal"
        ):
            weight = float(token.value)
        else:
            break
        i += 1
    if i >= len(toks):
        return None
    size = _font_size([toks[i]])
    if size is None:
        return None
    i += 1
    if i < len(toks) and toks[i].type == "literal" and toks[i].value == "/":
        i += 2
    family = _font_family(toks[i:]) if i < len(toks) else None
    if family is None:
        return None
    return [("font-style", style), ("font-weight", weight), ("font-size", size), ("font-family", family)]


@text_cache(4096, arg=1)
def parse_value_text(prop: str, text: str) -> Any:
    """Parse a value given as text (after ``var()`` substitution); cached across pages."""
    tokens = tinycss2.parse_component_value_list(text)
    if prop == "font":
        return expand_font(tokens)
    return parse_value(prop, tokens)
