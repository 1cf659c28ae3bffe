"""Optional integrations: which setting needs which extra, checked before a crawl starts.

A setting turned on without its extra installed would otherwise fail inside Scrapy's start-up with
a ``ModuleNotFoundError`` traceback (``NEWSCRAWL_DISTRIBUTED`` without scrapy-redis and redis); the
add-on and ``newscrawl crawl`` refuse it first, naming the extra to install.
"""

from __future__ import annotations

import importlib.util
from typing import Any

# setting (on when true) -> (extra, the modules it installs)
NEEDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "NEWSCRAWL_DISTRIBUTED": ("distributed", ("scrapy_redis", "redis")),
}


def installed(module: str) -> bool:
    """Whether ``module`` can be imported, without importing it."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or a module set to None
        return False


def extra_errors(settings: Any) -> list[str]:
    """One message per setting of ``settings`` (a Scrapy Settings) that is on while its extra is not
    installed, e.g. "NEWSCRAWL_DISTRIBUTED needs the 'distributed' extra (missing: scrapy_redis):
    pip install 'newscrawl[distributed]'"."""
    errors = []
    for name, (extra, modules) in NEEDS.items():
        try:
            on = settings.getbool(name)
        except ValueError:  # not a boolean: setting_errors says so
            continue
        missing = [m for m in modules if not installed(m)]
        if on and missing:
            errors.append(
                f"{name} needs the {extra!r} extra (missing: {', '.join(missing)}): pip install 'newscrawl[{extra}]'"
            )
    return errors
