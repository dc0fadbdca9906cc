"""Datasette plugins for the UI and the server's limits, one purpose each."""

MCP_PATH = "/-/mcp"  # datasette-mcp's endpoint, where the read-only rule and the SQL turns are told apart
