"""Article extraction: NCE relevant content, the title/date tree ensembles, body (see api.py).

``newscrawl.extract`` is both this package and the function users call
(``newscrawl.extract(html, url)``): the module is made callable and forwards to
:func:`newscrawl.extract.api.extract`, so either import style works. Its names load the extractor
on first use: a crawl's main process imports modules of this package (metadata, dates) without
the extractor, which its workers run (0.2 s of every crawl's start).
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from newscrawl.extract.api import Article, extract, extract_page

__all__ = ["Article", "extract", "extract_page"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from newscrawl.extract import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _CallableModule(types.ModuleType):
    def __call__(self, *args: Any, **kwargs: Any) -> Article:
        from newscrawl.extract.api import extract

        return extract(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
