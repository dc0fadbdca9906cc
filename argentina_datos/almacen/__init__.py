"""Storage: the files as upstream published them (publicados, versiones) and their projection for SQL (tables,
codecs: records become rows, never the other way)."""
