"""The Chamber of Deputies: periods, committees, deputies, seats, votes and travel."""
from __future__ import annotations

from ..esquema import Dataset

DATASETS: list[Dataset] = []
