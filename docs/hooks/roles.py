"""MkDocs hook: docstrings cite code with Sphinx roles (``:func:`extract```), which mkdocstrings renders
as the role name followed by the code; keep the code, drop the role name."""

from __future__ import annotations

import re
from typing import Any

_ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):(?=<code>)")


def on_page_content(html: str, **kwargs: Any) -> str:
    return _ROLE.sub("", html)
