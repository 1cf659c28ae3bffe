#!/usr/bin/env bash
# The package as a user gets it: build the wheel from this checkout, install it into a fresh
# virtualenv outside the repository and run `newscrawl demo` there from another directory; the demo
# must write articles (it needs the models the wheel carries as newscrawl/_models).
# Fast by default: the fresh venv reads the dependencies already installed in .venv (a .pth line,
# after its own site-packages), so only the wheel is installed. WHEEL_FULL_INSTALL=1 installs the
# wheel with its dependencies from the package index instead (pip cache reused; minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/newscrawl-wheel.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# the dev extra installs the build backend: no isolated build environment to set up; build/ is
# emptied first, or files of modules since removed could reach the wheel
rm -rf build
.venv/bin/python -m build --wheel --no-isolation --outdir "$WORK/dist" . > "$WORK/build.log" 2>&1 \
  || { cat "$WORK/build.log"; exit 1; }
WHEEL=$(ls "$WORK"/dist/newscrawl-*.whl)
# without pip of its own (ensurepip costs half a minute): .venv's pip installs into it
python3 -m venv --without-pip "$WORK/venv"
PIP=(.venv/bin/python -m pip --python "$WORK/venv/bin/python" install -q)
if [ "${WHEEL_FULL_INSTALL:-}" = "1" ]; then
  "${PIP[@]}" "$WHEEL"
else
  "${PIP[@]}" --no-deps "$WHEEL"
  DEPS=$(.venv/bin/python -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
  OWN=$("$WORK/venv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
  echo "$DEPS" > "$OWN/zz-newscrawl-deps.pth"
fi
mkdir "$WORK/elsewhere"
cd "$WORK/elsewhere"
# the wheel's package, not the checkout's (the editable install's finder lives in .venv, unread here)
"$WORK/venv/bin/python" - "$REPO" <<'PY'
import sys
from pathlib import Path

import newscrawl
from newscrawl.paths import models_dir

repo, package = Path(sys.argv[1]).resolve(), Path(newscrawl.__file__).resolve()
assert repo not in package.parents, f"newscrawl imported from the checkout: {package}"
assert models_dir() == package.parent / "_models" and (models_dir() / "url_classifier.json").is_file(), models_dir()
print(f"wheel package at {package.parent}, models at {models_dir()}")
PY
"$WORK/venv/bin/newscrawl" demo --log-level WARNING -o "$WORK/elsewhere/articles.jsonl" | tail -1
ARTICLES=$(wc -l < "$WORK/elsewhere/articles.jsonl")
if [ "$ARTICLES" -lt 20 ]; then
  echo "newscrawl demo from the wheel wrote $ARTICLES articles (expected 20 or more)"; exit 1
fi
echo "wheel demo: $ARTICLES articles from $(basename "$WHEEL")"
