"""Datasette plugins for the UI and the server's limits, one purpose each."""
