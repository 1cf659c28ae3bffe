#!/usr/bin/env bash
# Set up a development environment from a fresh clone: a virtualenv in .venv with newscrawl
# installed in editable mode and its test extras. Idempotent; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip 2>&1 | grep -v "is ignored" || true
.venv/bin/python -m pip install -q -e '.[test]' 2>&1 | grep -v "is ignored" || true
.venv/bin/python -c "import newscrawl, scrapy; print('newscrawl', newscrawl.__version__, 'scrapy', scrapy.__version__)"
