"""Storage: how records become rows (tables, codecs) and rows become records again (queries)."""
