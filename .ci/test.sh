#!/usr/bin/env bash
# The README's test command: set up, run the whole test suite, then the extraction quality gate
# (F1 floors per dataset on ../shared/datasets; see benchmarks/quality_gate.py). The gate needs
# the development datasets beside the repository; in CI their absence is a failure, elsewhere
# the gate is left out with a message. With the datasets, damaged development pages (44 kinds of
# hostile input, warnings as errors) must neither raise nor degrade: benchmarks/damaged_pages.py.
# Before the tests: ruff and mypy on newscrawl/ (configured in pyproject.toml); after them, the
# wheel built from the checkout runs `newscrawl demo` outside it (.ci/wheel_demo.sh), and the
# documentation site builds with --strict.
# With the saved sites, crawls of two of them must keep their article recall/precision floors.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh
# lint and type check (configuration in pyproject.toml)
.venv/bin/ruff check newscrawl
.venv/bin/ruff format --check newscrawl
.venv/bin/mypy
.venv/bin/python -m pytest
# the built wheel (models included) runs the demo in a fresh virtualenv outside the checkout
bash .ci/wheel_demo.sh
# the documentation site (mkdocs.yml; settings reference and API reference generated): no warnings
SITE=$(mktemp -d)
DISABLE_MKDOCS_2_WARNING=true NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --quiet --site-dir "$SITE"
rm -rf "$SITE"
if [ -d ../shared/datasets ] || [ -n "${NEWSCRAWL_SHARED_DIR:-}" ] || [ "${CI:-}" = "true" ]; then
  .venv/bin/python benchmarks/quality_gate.py
  .venv/bin/python benchmarks/damaged_pages.py --pages 12
else
  echo "quality gate not run: no ../shared/datasets beside this repository"
fi
# The CSS scanner against tinycss2 on every saved site's stylesheets and the hostile corpus.
if [ -d ../shared/sites ] || [ -n "${NEWSCRAWL_SHARED_DIR:-}" ]; then
  .venv/bin/python benchmarks/css_differential.py
fi
# Site gate: crawls of saved sites with the default settings, recall/precision floors per article
# (benchmarks/site_floors.json names the sites: two of ../shared/sites, a few minutes).
if [ -d ../shared/sites ] || [ -n "${NEWSCRAWL_SHARED_DIR:-}" ] || [ "${CI:-}" = "true" ]; then
  .venv/bin/python benchmarks/site_crawl.py --floors benchmarks/site_floors.json
else
  echo "site gate not run: no ../shared/sites beside this repository"
fi
