"""Wallets and crypto platforms: yields, wallet funds (other and variable-rate), fund comparison."""
from __future__ import annotations

from ..esquema import Dataset

DATASETS: list[Dataset] = []
