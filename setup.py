"""Build hook: the wheel carries the shipped models as ``newscrawl/_models`` (see newscrawl/paths.py).

The models stay in the repository's top-level ``models/`` folder, where ``newscrawl train`` writes
them and their cards; they are copied into the package only when a wheel is built. Everything else
is configured in pyproject.toml.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

MODELS = Path(__file__).resolve().parent / "models"


class BuildWithModels(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):  # an editable install reads models/ in place
            return
        target = Path(self.build_lib) / "newscrawl" / "_models"
        self.mkpath(str(target))
        for model in sorted(MODELS.glob("*")):
            if model.suffix in (".json", ".md"):
                self.copy_file(str(model), str(target / model.name))


setup(cmdclass={"build_py": BuildWithModels})
