"""Templates per site: a bounded in-memory LRU over an optional directory of JSON files.

Keys are the registrable domain, plus ``/<first path segment>`` for a section whose pages use
another template than the rest of the site. A template older than ``expiry`` seconds counts as
missing (sites redesign), in memory and on disk; the disk copy lets a resumed (``JOBDIR``) or
later crawl reuse what an earlier one learned.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from collections import OrderedDict
from pathlib import Path
from urllib.parse import urlsplit

from newscrawl.links.urls import registrable_domain
from newscrawl.template.model import Template

logger = logging.getLogger(__name__)


def cache_key(url: str, section: bool = False) -> str:
    """``example.com`` or, for a section, ``example.com/sport``."""
    domain = registrable_domain(url)
    if not section:
        return domain
    segments = [s for s in urlsplit(url).path.split("/") if s]
    return f"{domain}/{segments[0]}" if len(segments) > 1 else domain


class TemplateCache:
    def __init__(
        self, max_entries: int = 512, directory: str | os.PathLike[str] | None = None, expiry: float | None = None
    ) -> None:
        self.max_entries = max_entries
        self.directory = Path(directory) if directory else None
        self.expiry = expiry or None
        self._memory: OrderedDict[str, Template] = OrderedDict()

    def _fresh(self, template: Template) -> bool:
        return self.expiry is None or time.time() - template.created <= self.expiry

    def _file(self, key: str) -> Path:
        assert self.directory is not None
        name = hashlib.blake2b(key.encode(), digest_size=10).hexdigest()
        return self.directory / f"{name}.json"

    def get(self, key: str) -> Template | None:
        template = self._memory.get(key)
        if template is not None:
            if self._fresh(template):
                self._memory.move_to_end(key)
                return template
            del self._memory[key]
        if self.directory is None:
            return None
        path = self._file(key)
        try:
            template = Template.from_json(path.read_bytes())
        except FileNotFoundError:
            return None
        except (ValueError, KeyError, TypeError) as exc:
            logger.warning("unreadable cached template %s (%s): ignored", path, exc)
            return None
        if not self._fresh(template):
            path.unlink(missing_ok=True)
            return None
        self._remember(key, template)
        return template

    def put(self, key: str, template: Template) -> None:
        self._remember(key, template)
        if self.directory is not None:
            self.directory.mkdir(parents=True, exist_ok=True)
            path = self._file(key)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(template.to_json(), encoding="utf-8")
            tmp.replace(path)  # atomic: a crash never leaves half a file

    def _remember(self, key: str, template: Template) -> None:
        self._memory[key] = template
        self._memory.move_to_end(key)
        while len(self._memory) > self.max_entries:
            self._memory.popitem(last=False)

    def __len__(self) -> int:
        return len(self._memory)
