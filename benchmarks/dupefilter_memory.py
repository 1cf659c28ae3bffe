"""Memory of the distributed dupefilter in Redis: scrapy-redis's fingerprint set vs the
fixed-size Bloom filter (``newscrawl.distributed.dupefilter``), per number of URLs seen.

Starts a private redis-server (Debian package) on 127.0.0.1 and a free port, adds N request
fingerprints of the form scrapy-redis stores (40 hex characters), reads ``used_memory``.

    .venv/bin/python benchmarks/dupefilter_memory.py --urls 100000 1000000
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import socket
import subprocess
import tempfile
import time

import redis

from newscrawl.distributed.dupefilter import bloom_size


def start_redis(workdir: str) -> tuple[subprocess.Popen, redis.Redis]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([shutil.which("redis-server") or "redis-server", "--port", str(port), "--bind", "127.0.0.1",
                             "--dir", workdir, "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL)
    client = redis.Redis(port=port)
    for _ in range(200):
        try:
            client.ping()
            return proc, client
        except redis.ConnectionError:
            time.sleep(0.05)
    raise SystemExit("redis-server did not start")


def fingerprints(n: int, salt: str):
    for i in range(n):
        yield hashlib.sha1(f"{salt}{i}".encode()).hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--urls", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--error", type=float, default=1e-6, help="Bloom false-positive rate at capacity")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, client = start_redis(tmp)
        try:
            print(f"{'URLs':>10} {'set MB':>8} {'B/URL':>6} {'Bloom MB':>9} {'hashes':>6}")
            for n in args.urls:
                client.flushall()
                base = client.info("memory")["used_memory"]
                batch = []
                for fp in fingerprints(n, "u"):
                    batch.append(fp)
                    if len(batch) == 10_000:
                        client.sadd("set", *batch)
                        batch.clear()
                if batch:
                    client.sadd("set", *batch)
                used = client.info("memory")["used_memory"] - base
                bits, hashes = bloom_size(n, args.error)
                print(f"{n:>10} {used / 2**20:>8.1f} {used / n:>6.0f} {bits / 8 / 2**20:>9.1f} {hashes:>6}")
        finally:
            proc.terminate()
            proc.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
