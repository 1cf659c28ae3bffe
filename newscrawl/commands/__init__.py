"""Subcommands of the ``newscrawl`` CLI; see :mod:`newscrawl.cli`."""
