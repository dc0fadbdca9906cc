"""Datasette plugins for the UI and the server's limits, one purpose each."""

MCP_PATH = "/-/mcp"  # datasette-mcp's endpoint, where the read-only rule and the SQL turns are told apart
# /-/vivo (a load balancer's) and /-/salud.json (a monitor's): complementos/salud.py answers them, and no queue
# for pages holds them (complementos/turnos.py)
LIVE_PATH, HEALTH_PATH = "/-/vivo", "/-/salud.json"
HEALTH_PATHS = (LIVE_PATH, HEALTH_PATH)
