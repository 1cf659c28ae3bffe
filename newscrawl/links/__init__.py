"""URLs and links: canonicalisation and scope (``urls``), link traps (``traps``), link-target
features (``features``) and the URL article classifier (``classifier``)."""
