"""Treasury instruments: CER-linked bonds and bills (letras)."""
from __future__ import annotations

from ..esquema import Dataset

DATASETS: list[Dataset] = []
