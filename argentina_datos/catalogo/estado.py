"""The state of the upstream service (/v1/estado)."""
from __future__ import annotations

from ..esquema import Dataset

DATASETS: list[Dataset] = []
