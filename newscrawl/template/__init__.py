"""Site templates (seed 003): n-CS page selection, equality probability, exact top-down mapping.

``detect_template(key_page, pages) -> Template``; ``learn_template(url, fetch)`` adds the n-CS
search; ``templates_for_group`` serves ``newscrawl extract --batch --site-templates``;
:class:`TemplateCache` keeps templates per site in memory and on disk.
"""

from newscrawl.template.cache import TemplateCache, cache_key
from newscrawl.template.detect import detect_template, learn_template, templates_for_group
from newscrawl.template.etdm import Params
from newscrawl.template.model import Template

__all__ = [
    "Params",
    "Template",
    "TemplateCache",
    "cache_key",
    "detect_template",
    "learn_template",
    "templates_for_group",
]
