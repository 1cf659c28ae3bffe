"""The settings reference is generated from newscrawl/defaults.py (docs/hooks/settings_page.py): every
setting appears once, with its default and the comment above it, under its section."""

from __future__ import annotations

import runpy
from pathlib import Path

from newscrawl.defaults import CHOICES, DEFAULTS

REPO = Path(__file__).resolve().parents[1]


def test_every_setting_is_in_the_generated_reference() -> None:
    generator = runpy.run_path(str(REPO / "docs" / "hooks" / "settings_page.py"), run_name="settings_page")
    source = (REPO / "newscrawl" / "defaults.py").read_text(encoding="utf-8")
    sections = generator["settings_table"](source)
    rows = [row for _title, rows in sections for row in rows]
    assert [name for name, _default, _comment in rows] == list(DEFAULTS)
    assert all(comment for _name, _default, comment in rows)  # each documented (or "As ... above.")
    assert len(sections) >= 5 and sections[0][0].startswith("spider")
    by_name = {name: (default, comment) for name, default, comment in rows}
    assert by_name["NEWSCRAWL_MAX_URL_LENGTH"] == ("2000", "URLs longer than this are not followed (link traps, "
                                                           "tracking junk).")
    page = generator["page"](source)
    for name in DEFAULTS:
        assert page.count(f"| `{name}` |") == 1
    for name, choices in CHOICES.items():
        line = next(line for line in page.splitlines() if line.startswith(f"| `{name}` |"))
        assert all(repr(choice) in line for choice in choices)
