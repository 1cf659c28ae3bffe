"""``python -m newscrawl`` is the same as the ``newscrawl`` command."""

import sys

from newscrawl.cli import main

sys.exit(main())
