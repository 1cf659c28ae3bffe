"""Article extraction: NCE relevant content, the title/date tree ensembles, body (see api.py).

``newscrawl.extract`` is both this package and the function users call
(``newscrawl.extract(html, url)``): the module is made callable and forwards to
:func:`newscrawl.extract.api.extract`, so either import style works.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from newscrawl.extract.api import Article, extract, extract_page

__all__ = ["Article", "extract", "extract_page"]


class _CallableModule(types.ModuleType):
    def __call__(self, *args: Any, **kwargs: Any) -> Article:
        return extract(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
