#!/usr/bin/env bash
# Set up a development environment from a fresh clone: a virtualenv in .venv with newscrawl
# installed in editable mode and its test extras. Idempotent; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
# The distributed-crawl tests start their own redis-server (127.0.0.1, random port, temp dir):
# install Debian's package when it is missing and we may (root).
if ! command -v redis-server >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
fi
# The PostgreSQL pipeline tests start their own server (initdb in a temp dir, 127.0.0.1, a free
# port, run as the postgres system user): Debian's package, when missing and we may (root).
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
# (pip's "Location ... is ignored" warnings come from this machine's pip configuration: harmless)
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test,dev]'
.venv/bin/python -c "import newscrawl, scrapy; print('newscrawl', newscrawl.__version__, 'scrapy', scrapy.__version__)"
