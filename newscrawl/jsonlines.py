"""One JSON line per result, the same bytes wherever it is written (``extract --batch``, ``--warc``,
the Dask workers): a module of its own below the commands and the WARC reader so that both can
import it without importing each other."""

from __future__ import annotations

import json
from typing import Any


def _jsonable(value: Any) -> Any:
    """json.dumps fallback: numpy scalars, sets and anything else a result may carry."""
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, (set, frozenset, tuple)):
        return sorted(value, key=str)
    return str(value)


def dumps(obj: Any, indent: int | None = None) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=indent, default=_jsonable)
