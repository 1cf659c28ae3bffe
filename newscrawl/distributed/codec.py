"""A JSON serializer for scrapy-redis queues (``SCHEDULER_SERIALIZER``).

scrapy-redis pickles requests by default, so anyone who can write to the Redis server could run
code on every worker. This module has the ``dumps``/``loads`` pair scrapy-redis expects and
encodes ``bytes`` (headers, bodies) as ``{"__b64__": "..."}``; decoding never executes code.
"""

from __future__ import annotations

import base64
import json
from typing import Any

_B64 = "__b64__"


def _encode(obj: Any) -> Any:
    if isinstance(obj, bytes):
        return {_B64: base64.b64encode(obj).decode("ascii")}
    if isinstance(obj, dict):
        return {str(k) if not isinstance(k, bytes) else k.decode("latin-1"): _encode(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set, frozenset)):
        return [_encode(v) for v in obj]
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    raise TypeError(f"cannot serialize {type(obj).__name__} in a request: {obj!r}"[:200])


def _decode(obj: Any) -> Any:
    if isinstance(obj, dict):
        if len(obj) == 1 and _B64 in obj:
            return base64.b64decode(obj[_B64])
        return {k: _decode(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_decode(v) for v in obj]
    return obj


def dumps(obj: Any) -> str:
    return json.dumps(_encode(obj), separators=(",", ":"), ensure_ascii=False)


def loads(data: str | bytes) -> Any:
    return _decode(json.loads(data))
