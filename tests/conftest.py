"""Fixtures shared by test folders (importlib import mode: test modules cannot import each other)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest


def tag_soup(rng: random.Random, tags: list[str], count: int, opening: Callable[[str], str],
             tail: Callable[[], str] | None = None, head: str = "<html><body>") -> str:
    """A random, often unclosed nesting of ``count`` elements for comparing two implementations on
    the same pages: each step may close the innermost open element (35%), then opens a random tag
    as ``opening(tag)`` writes it (its attributes and first text), then, with ``tail``, adds a
    text after it 30% of the time."""
    parts, open_tags = [head], []
    for _ in range(count):
        if open_tags and rng.random() < 0.35:
            parts.append(f"</{open_tags.pop()}>")
        tag = rng.choice(tags)
        parts.append(opening(tag))
        open_tags.append(tag)
        if tail is not None and rng.random() < 0.3:
            parts.append(tail())
    return "".join(parts) + "</body></html>"


@pytest.fixture(scope="session")
def random_tag_soup() -> Callable[..., str]:
    """:func:`tag_soup`, for test modules."""
    return tag_soup
