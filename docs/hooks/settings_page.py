"""Write the settings reference (``settings.md``) from ``newscrawl/defaults.py``, and the model cards
(``models/*.md``) as pages, at docs build time.

Run by the mkdocs-gen-files plugin (mkdocs.yml), so the page can never drift from the defaults: each
``NEWSCRAWL_*`` entry of ``DEFAULTS`` with its default value and the comment above it, grouped by
the ``# --- section`` lines, and the accepted values of the string settings (``CHOICES``).
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SOURCE = REPO / "newscrawl" / "defaults.py"
MODELS = REPO / "models"


def settings_table(source: str, variable: str = "DEFAULTS", first: str = "General"
                   ) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """``[(section, [(name, default source, comment)])]`` of the dict ``variable`` in the text of
    defaults.py; entries before its first ``# ---`` line go under ``first``."""
    tree = ast.parse(source)
    lines = source.splitlines()
    defaults = next(node.value for node in tree.body if isinstance(node, ast.AnnAssign | ast.Assign)
                    and getattr(getattr(node, "target", None), "id", None) == variable)
    assert isinstance(defaults, ast.Dict)
    sections: list[tuple[str, list[tuple[str, str, str]]]] = [(first, [])]
    previous_end = defaults.lineno  # the line of "DEFAULTS = {"
    for key, value in zip(defaults.keys, defaults.values):
        assert isinstance(key, ast.Constant)
        comment: list[str] = []
        for line in lines[previous_end:key.lineno - 1]:  # between the last entry and this one
            text = line.strip()
            if text.startswith("# ---"):
                sections.append((text.strip("# -").strip(), []))
                comment = []
            elif text.startswith("#"):
                comment.append(text.lstrip("#").strip())
        default = " ".join((ast.get_source_segment(source, value) or "").split())
        rows = sections[-1][1]
        if not comment and rows:  # one comment above several settings covers them all
            text = f"As `{rows[-1][0]}` above." if rows[-1][2] and not rows[-1][2].startswith("As `") else rows[-1][2]
        else:
            text = " ".join(comment)
        rows.append((key.value, default, text))
        previous_end = value.end_lineno or value.lineno
    return [(title, rows) for title, rows in sections if rows]


def page(source: str) -> str:
    from newscrawl.defaults import CHOICES

    out = ["# Settings reference", "",
           "Every `NEWSCRAWL_*` setting with its default, generated from `newscrawl/defaults.py` when the",
           "documentation is built. The add-on installs these defaults with the `addon` priority, so a",
           "project's `settings.py`, a spider's `custom_settings` and `-s NAME=VALUE` still win. A value a",
           "setting cannot take stops the crawl before it starts, naming the setting.", ""]
    scrapy = settings_table(source, "SCRAPY_DEFAULTS", "Scrapy settings the add-on changes (a project's value wins)")
    for title, rows in settings_table(source) + scrapy:
        out += [f"## {title[:1].upper() + title[1:]}", "", "| setting | default | what it does |", "|---|---|---|"]
        for name, default, comment in rows:
            if name in CHOICES:
                comment += " One of: " + ", ".join(f"`{choice!r}`" for choice in CHOICES[name]) + "."
            cell = default.replace("|", "\\|")
            if len(cell) > 60:
                cell = cell[:57] + "..."
            out.append(f"| `{name}` | `{cell}` | {comment.replace('|', chr(92) + '|')} |")
        out.append("")
    return "\n".join(out)


def main() -> None:
    import mkdocs_gen_files

    with mkdocs_gen_files.open("settings.md", "w") as fh:
        fh.write(page(SOURCE.read_text(encoding="utf-8")))
    # the model cards, as written by the training commands beside the models (models/*.md)
    for card in sorted(MODELS.glob("*.md")):
        with mkdocs_gen_files.open(f"models/{card.name}", "w") as fh:
            fh.write(card.read_text(encoding="utf-8"))


if __name__ in ("__main__", "<run_path>") or __name__.startswith("mkdocs_gen_files"):
    main()
