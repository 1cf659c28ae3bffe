"""Reproducible training commands for the models shipped in ``models/`` (see ``newscrawl train``)."""
