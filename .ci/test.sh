#!/usr/bin/env bash
# The README's test command: set up, run the whole test suite, then the extraction quality gate
# (F1 floors per dataset on ../shared/datasets; see benchmarks/quality_gate.py).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh
.venv/bin/python -m pytest
.venv/bin/python benchmarks/quality_gate.py
