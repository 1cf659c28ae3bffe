"""Would compiling newscrawl's pure-Python modules with Cython pay? Build, check, time (issue 4).

Copies the package twice into a scratch folder, compiles the given modules of one copy in place
with Cython (pure-Python mode: the ``.py`` files as they are, annotations not used as C types), and
then:

- checks the compiled copy is byte-identical: ``benchmarks/extraction_snapshot.py dump`` in both
  copies, then the two dumps compared;
- prints the CPU (process time) a page of ``extract()`` over a dataset's pages in fresh processes,
  pure and compiled alternating (the machine is shared: pairs, not single runs, and CPU, not wall).

Cython is not a dependency of newscrawl (docs/decisions.md, "Extraction speed, round 12 (compiled
modules)": measured, not adopted): give a
folder holding it (``pip install --target DIR cython``) with ``--cython``, or install it in the venv.

Usage:
  .venv/bin/python benchmarks/compiled_modules.py --cython DIR [--dataset trafilatura-eval]
      [--pages 400] [--pairs 3] [--modules newscrawl/page.py,newscrawl/css/cascade.py] [--keep DIR]
"""

from __future__ import annotations

import argparse
import filecmp
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from newscrawl.paths import REPO_DIR, models_dir, shared_dir

# the modules extract() spends its Python time in (cProfile by file, docs/decisions.md round 12)
MODULES = (
    "page.py css/cascade.py css/stylesheet.py css/selectors.py css/scan.py css/declarations.py "
    "css/values.py css/media.py classify/features.py classify/coreex.py classify/codepoints.py "
    "classify/page.py classify/text.py classify/mss.py classify/newsfeed.py classify/wang.py "
    "extract/api.py extract/nce.py extract/features.py extract/metadata.py extract/titledate.py "
    "extract/body.py extract/dates.py links/features.py links/urls.py modelio.py"
).split()

BUILD = """
import sys
from setuptools import Extension, setup
from Cython.Build import cythonize
files = sys.argv[1:]
exts = [Extension(f[:-3].replace("/", "."), [f]) for f in files]
setup(name="newscrawl-compiled-check", script_args=["build_ext", "--inplace", "-j", "2"],
      ext_modules=cythonize(exts, quiet=True, nthreads=2,
                            compiler_directives={"language_level": 3, "annotation_typing": False}))
"""

CPU = """
import sys, time
from newscrawl.evaluate import load_dataset, read_page
from newscrawl.paths import datasets_dir
import newscrawl
name, n = sys.argv[1], int(sys.argv[2])
pages = [(read_page(r.path), r.url) for r in load_dataset(datasets_dir() / name) if r.path][:n]
newscrawl.extract(b"<html><title>w</title><body><p>" + b"A warm-up sentence of prose. " * 40 + b"</p></body></html>",
                  url="http://127.0.0.1/warm")  # models, regexes and sklearn's import are not a page's cost
start = time.process_time()
for data, url in pages:
    newscrawl.extract(data, url=url)
cpu = (time.process_time() - start) / len(pages) * 1000
loaded = [m for m in list(sys.modules.values()) if m.__name__.startswith("newscrawl")]
print(cpu, sum(1 for m in loaded if (getattr(m, "__file__", None) or "").endswith(".so")))
"""


def copy_tree(dest: Path) -> None:
    """The package alone (no compiled leftovers); models and datasets come from the environment."""
    shutil.copytree(REPO_DIR / "newscrawl", dest / "newscrawl",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c"))


def run(tree: Path, args: list[str], extra_path: str = "") -> str:
    """A fresh interpreter whose ``newscrawl`` is the copy in ``tree``."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(tree), extra_path) if p),
               NEWSCRAWL_MODELS_DIR=str(models_dir()), NEWSCRAWL_SHARED_DIR=str(shared_dir()),
               CFLAGS="-g0 -O2")  # no debug info: the build takes half the time, the code is the same
    done = subprocess.run([sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{' '.join(args[:2])} failed in {tree}:\n{done.stderr[-3000:]}")
    return done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cython", default="", help="folder to add to the path of the build (holds Cython)")
    parser.add_argument("--modules", default=",".join(MODULES), help="comma-separated, under newscrawl/")
    parser.add_argument("--dataset", default="trafilatura-eval")
    parser.add_argument("--pages", type=int, default=400)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--keep", help="build here (and keep it) instead of a temporary folder")
    args = parser.parse_args()
    modules = [m.strip().removeprefix("newscrawl/") for m in args.modules.split(",") if m.strip()]
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="newscrawl-compiled-"))
    pure, compiled = root / "pure", root / "compiled"
    for tree in (pure, compiled):
        shutil.rmtree(tree, ignore_errors=True)
        copy_tree(tree)
    wall, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    run(compiled, ["-c", BUILD, *(f"newscrawl/{m}" for m in modules)], args.cython)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"built {len(modules)} modules: {time.perf_counter() - wall:.1f} s wall, "
          f"{after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime:.1f} s CPU (compiler included)")
    snapshot = str(REPO_DIR / "benchmarks" / "extraction_snapshot.py")
    for tree in (pure, compiled):
        run(tree, [snapshot, "dump", str(tree / "snapshot.jsonl")])
    same = filecmp.cmp(pure / "snapshot.jsonl", compiled / "snapshot.jsonl", shallow=False)
    print(f"snapshot (extraction_snapshot.py dump): {'byte-identical' if same else 'DIFFERENT'}")
    times: dict[str, list[float]] = {"pure": [], "compiled": []}
    for pair in range(args.pairs):
        extensions = {}
        for name, tree in (("pure", pure), ("compiled", compiled)):
            cpu, extensions[name] = run(tree, ["-c", CPU, args.dataset, str(args.pages)]).split()
            times[name].append(float(cpu))
        print(f"pair {pair + 1}: pure {times['pure'][-1]:.2f}, compiled {times['compiled'][-1]:.2f} ms CPU a page "
              f"(newscrawl modules loaded from extensions: {extensions['pure']}, {extensions['compiled']})")
    p, c = statistics.median(times["pure"]), statistics.median(times["compiled"])
    print(f"{args.dataset} median CPU a page: pure {p:.2f} ms, compiled {c:.2f} ms ({(c - p) / p:+.1%})")
    if not args.keep:
        shutil.rmtree(root)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
