"""Media queries and @supports conditions, evaluated for one desktop screen.

We style pages as a desktop browser window of a configurable size would (default 1366x768, the
seed's setting): ``screen`` and ``all`` match, ``print`` and other media do not, width/height
features compare against the viewport, preference features take a browser's defaults.
"""

from __future__ import annotations

from typing import Any

import tinycss2

from newscrawl.css.values import ABSOLUTE_UNITS, significant
from newscrawl.textcache import text_cache

DEFAULT_VIEWPORT = (1366, 768)
_MATCHING_TYPES = frozenset({"all", "screen"})
# Discrete features with the value a default desktop browser reports.
_DISCRETE = {
    "prefers-color-scheme": "light",
    "prefers-reduced-motion": "no-preference",
    "prefers-contrast": "no-preference",
    "prefers-reduced-transparency": "no-preference",
    "prefers-reduced-data": "no-preference",
    "hover": "hover",
    "any-hover": "hover",
    "pointer": "fine",
    "any-pointer": "fine",
    "scripting": "enabled",
    "update": "fast",
    "display-mode": "browser",
    "forced-colors": "none",
    "inverted-colors": "none",
    "overflow-block": "scroll",
    "overflow-inline": "scroll",
    "color-gamut": "srgb",
    "dynamic-range": "standard",
    "orientation": None,
}
_BOOLEAN_TRUE = frozenset(
    {
        "color",
        "hover",
        "any-hover",
        "pointer",
        "any-pointer",
        "grid",
        "scripting",
        "update",
        "width",
        "height",
        "orientation",
        "aspect-ratio",
        "resolution",
        "monochrome",
    }
)


def _numeric_features(viewport: tuple[int, int]) -> dict[str, float]:
    width, height = viewport
    return {
        "width": width,
        "height": height,
        "device-width": width,
        "device-height": height,
        "aspect-ratio": width / height,
        "device-aspect-ratio": width / height,
        "resolution": 1.0,
        "-webkit-device-pixel-ratio": 1.0,
        "device-pixel-ratio": 1.0,
        "color": 8.0,
        "color-index": 0.0,
        "monochrome": 0.0,
        "grid": 0.0,
    }


@text_cache(2048)
def media_matches(text: str | None, viewport: tuple[int, int] = DEFAULT_VIEWPORT) -> bool:
    """Whether a media query list (as written in ``media=`` or ``@media``) matches."""
    if text is None:
        return True
    tokens = tinycss2.parse_component_value_list(text)
    queries: list[list[Any]] = [[]]
    for token in tokens:
        if token.type == "literal" and token.value == ",":
            queries.append([])
        elif token.type not in ("whitespace", "comment"):
            queries[-1].append(token)
    if len(queries) == 1 and not queries[0]:
        return True  # empty list = all
    return any(_query(q, viewport) for q in queries)


def _query(toks: list[Any], viewport: tuple[int, int]) -> bool:
    if not toks:
        return False
    negate = False
    if toks[0].type == "ident" and toks[0].lower_value in ("not", "only") and len(toks) > 1 and toks[1].type == "ident":
        negate = toks[0].lower_value == "not"
        toks = toks[1:]
    if toks[0].type == "ident":
        media_type = toks[0].lower_value
        result = media_type in _MATCHING_TYPES
        rest = toks[1:]
        if rest:
            if not (rest[0].type == "ident" and rest[0].lower_value == "and") or len(rest) < 2:
                return False
            result = result and _condition(rest[1:], viewport)
        return result != negate
    return _condition(toks, viewport)


def _condition(toks: list[Any], viewport: tuple[int, int]) -> bool:
    """not X | X and Y and ... | X or Y or ..., with parenthesised features/conditions."""
    if toks and toks[0].type == "ident" and toks[0].lower_value == "not":
        return len(toks) == 2 and not _in_parens(toks[1], viewport)
    results: list[bool] = []
    ops: set[str] = set()
    for i, token in enumerate(toks):
        if i % 2 == 0:
            if token.type != "() block":
                return False
            results.append(_in_parens(token, viewport))
        else:
            if token.type != "ident" or token.lower_value not in ("and", "or"):
                return False
            ops.add(token.lower_value)
    if not results or len(toks) % 2 == 0 or len(ops) > 1:
        return False
    return any(results) if ops == {"or"} else all(results)


def _in_parens(block: Any, viewport: tuple[int, int]) -> bool:
    if block.type == "function":
        return False  # general-enclosed: unknown, never matches
    if block.type != "() block":
        return False
    toks = significant(block.content)
    if not toks:
        return False
    if toks[0].type == "() block" or (toks[0].type == "ident" and toks[0].lower_value == "not"):
        return _condition(toks, viewport)
    return _feature(toks, viewport)


def _value(token: Any) -> float | str | None:
    if token.type == "number":
        return float(token.value)
    if token.type == "dimension":
        unit = token.lower_unit
        if unit in ABSOLUTE_UNITS:
            return token.value * ABSOLUTE_UNITS[unit]
        if unit in ("em", "rem"):
            return token.value * 16.0
        if unit in ("dppx", "x"):
            return float(token.value)
        if unit == "dpi":
            return token.value / 96.0
        if unit == "dpcm":
            return token.value * 2.54 / 96.0
        return None
    if token.type == "ident":
        return token.lower_value
    return None


def _ratio_or_value(toks: list[Any]) -> float | str | None:
    if len(toks) == 3 and toks[1].type == "literal" and toks[1].value == "/":
        num, den = _value(toks[0]), _value(toks[2])
        if isinstance(num, float) and isinstance(den, float) and den:
            return num / den
        return None
    return _value(toks[0]) if len(toks) == 1 else None


def _compare(left: float, op: str, right: float) -> bool:
    eps = 1e-6
    return {
        "<": left < right - eps,
        "<=": left <= right + eps,
        ">": left > right + eps,
        ">=": left >= right - eps,
        "=": abs(left - right) <= eps,
    }[op]


def _feature(toks: list[Any], viewport: tuple[int, int]) -> bool:
    numeric = _numeric_features(viewport)
    if len(toks) == 1 and toks[0].type == "ident":
        name = toks[0].lower_value
        if name in _DISCRETE:
            return _DISCRETE[name] != "none" or name in _BOOLEAN_TRUE
        return name in _BOOLEAN_TRUE or bool(numeric.get(name))
    colon = next((i for i, t in enumerate(toks) if t.type == "literal" and t.value == ":"), None)
    if colon is not None:
        if colon != 1 or toks[0].type != "ident":
            return False
        name = toks[0].lower_value
        value = _ratio_or_value(toks[2:])
        if value is None:
            return False
        if name == "orientation":
            return value == ("landscape" if viewport[0] >= viewport[1] else "portrait")
        if name in _DISCRETE:
            return value == _DISCRETE[name]
        prefix = ""
        for candidate in ("min-", "max-", "-webkit-min-", "-webkit-max-"):
            if name.startswith(candidate):
                prefix, name = candidate.strip("-").replace("webkit-", ""), name[len(candidate) :]
                break
        if name.startswith("-webkit-"):
            name = name[len("-webkit-") :]
        if name not in numeric or not isinstance(value, float):
            return False
        actual = numeric[name]
        op = {"min": ">=", "max": "<=", "": "="}[prefix]
        return _compare(actual, op, value)
    return _range(toks, numeric)


def _range(toks: list[Any], numeric: dict[str, float]) -> bool:
    """Range syntax: (width >= 600px), (400px <= width < 700px)."""
    parts: list[Any] = []
    i = 0
    while i < len(toks):
        token = toks[i]
        if token.type == "literal" and token.value in ("<", ">", "="):
            op = token.value
            if op in "<>" and i + 1 < len(toks) and toks[i + 1].type == "literal" and toks[i + 1].value == "=":
                op += "="
                i += 1
            parts.append(("op", op))
        else:
            parts.append(("v", token))
        i += 1
    if len(parts) not in (3, 5) or any(p[0] != "op" for p in parts[1::2]):
        return False
    values: list[float] = []
    for _kind, token in parts[::2]:
        if token.type == "ident" and token.lower_value in numeric:
            values.append(numeric[token.lower_value])
        else:
            val = _value(token)
            if not isinstance(val, float):
                return False
            values.append(val)
    ops = [p[1] for p in parts[1::2]]
    return all(_compare(values[k], ops[k], values[k + 1]) for k in range(len(ops)))


def supports_matches(tokens: list[Any]) -> bool:
    """@supports, optimistically: a declaration test holds (a current browser supports nearly
    everything real sites test for); not/and/or combine as written."""
    toks = significant(tokens)
    if not toks:
        return False
    if toks[0].type == "ident" and toks[0].lower_value == "not":
        return len(toks) == 2 and not _supports_in_parens(toks[1])
    results: list[bool] = []
    ops: set[str] = set()
    for i, token in enumerate(toks):
        if i % 2 == 0:
            results.append(_supports_in_parens(token))
        elif token.type == "ident" and token.lower_value in ("and", "or"):
            ops.add(token.lower_value)
        else:
            return False
    if len(toks) % 2 == 0 or len(ops) > 1:
        return False
    return any(results) if ops == {"or"} else all(results)


def _supports_in_parens(token: Any) -> bool:
    if token.type == "function":
        return token.lower_name in ("selector", "font-tech", "font-format")
    if token.type != "() block":
        return False
    inner = significant(token.content)
    if inner and (
        inner[0].type == "() block"
        or inner[0].type == "function"
        or (inner[0].type == "ident" and inner[0].lower_value == "not")
    ):
        return supports_matches(token.content)
    # A declaration: "prop: value". Vendor-prefixed properties are the usual negative test.
    if len(inner) >= 2 and inner[0].type == "ident" and inner[1].type == "literal" and inner[1].value == ":":
        return not inner[0].lower_value.startswith(("-ms-", "-o-", "-moz-"))
    return False
