"""Parse one hostile stylesheet in a fresh process; print its stats and the peak memory.

A separate process gives an honest memory bound (ru_maxrss of this process only) without
tracemalloc's large slowdown. Usage: python _hostile.py twenty_mb|hundred_k
"""

from __future__ import annotations

import json
import resource
import sys

from newscrawl.css import parse_stylesheet


def twenty_mb() -> bytes:
    unit = b".a%d .b > p.c, div#x { color: #123456; margin: 0 } .m%d { margin: 0; padding: 0 }\n"
    return b"".join(unit % (i, i) for i in range(250_000))[:20_000_000]


def hundred_k() -> str:
    return "".join(f".r{i} {{ color: red }} .s{i} {{ margin: 0 }}" for i in range(100_000))


def main() -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # includes building the input
    css = {"twenty_mb": twenty_mb, "hundred_k": hundred_k}[sys.argv[1]]()
    sheet = parse_stylesheet(css, max_bytes=int(sys.argv[2]) if len(sys.argv) > 2 else 2 << 20)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"stats": dict(sheet.stats), "input_bytes": len(css),
                      "peak_growth_mb": (after - before) / 1024}))


if __name__ == "__main__":
    main()
