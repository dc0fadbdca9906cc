"""The build: sources (a directory or HTTP), the per-dataset loader, history and `build-db`."""
