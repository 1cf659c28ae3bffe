"""No import circle in ``newscrawl/``: each layer imports only the layers below it.

Read statically from the AST of every module, so an import inside a function (the lazy kind that
hides a circle until the function runs) counts as much as one at the top. ``from pkg import name``
depends on ``pkg.name`` when that is a module of ours, else on ``pkg``; the implicit import of a
module's parent packages is not counted (every ``newscrawl.x`` would otherwise depend on ``newscrawl``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import newscrawl

ROOT = Path(newscrawl.__file__).parent


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Dotted module name -> file, for every .py file under ``root`` (the package named ``newscrawl``)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = ("newscrawl",) + path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def import_graph(mods: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules of ours it imports anywhere in its source."""
    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                deps.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    deps.add(sub if sub in mods else source)
        graph[name] = {d for d in deps if d in mods and d != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def test_no_import_circle_in_newscrawl() -> None:
    graph = import_graph(modules())
    assert len(graph) > 50  # the whole package was read
    assert graph["newscrawl.extract.api"] >= {"newscrawl.extract.article", "newscrawl.page"}
    found = cycles(graph)
    described = ["; ".join(f"{m} -> {sorted(graph[m] & set(c))}" for m in c) for c in found]
    assert not found, "import circles: " + " | ".join(described)


def test_the_check_finds_a_circle(tmp_path: Path) -> None:
    """The check itself: a lazy import inside a function closes a circle it reports."""
    package = tmp_path / "newscrawl"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from newscrawl.sub import b\n")
    (package / "sub" / "b.py").write_text("def f():\n    from ..c import g\n")
    (package / "c.py").write_text("import newscrawl.a\nfrom newscrawl.sub import b as _b\n")
    (package / "d.py").write_text("from newscrawl import a\n")
    graph = import_graph(modules(package))
    assert graph["newscrawl.sub.b"] == {"newscrawl.c"}
    assert graph["newscrawl.d"] == {"newscrawl.a"}
    assert cycles(graph) == [["newscrawl.a", "newscrawl.c", "newscrawl.sub.b"]]
