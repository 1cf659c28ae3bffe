"""Where newscrawl finds its shipped models and the shared development data.

Models live in the repository's top-level ``models/`` folder (next to the package); an installed
wheel carries a copy as ``newscrawl/_models``. ``NEWSCRAWL_MODELS_DIR`` overrides both. The
development datasets are never part of the repository: they are read from ``../shared`` (or
``NEWSCRAWL_SHARED_DIR``) by training commands, benchmarks and the CI quality gate only.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_DIR = PACKAGE_DIR.parent


def models_dir() -> Path:
    override = os.environ.get("NEWSCRAWL_MODELS_DIR")
    if override:
        return Path(override)
    repo_models = REPO_DIR / "models"
    if repo_models.is_dir():
        return repo_models
    return PACKAGE_DIR / "_models"


def shared_dir() -> Path:
    override = os.environ.get("NEWSCRAWL_SHARED_DIR")
    return Path(override) if override else REPO_DIR.parent / "shared"


def datasets_dir() -> Path:
    return shared_dir() / "datasets"
