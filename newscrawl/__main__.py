"""``python -m newscrawl`` is the same as the ``newscrawl`` command."""

import sys

from newscrawl.cli import main

if __name__ == "__main__":  # worker processes (spawn) import this module under another name
    sys.exit(main())
