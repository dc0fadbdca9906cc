"""Where the tests find the shared data and put their database."""

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ARGENTINA_DATOS_SHARED", REPO.parent / "shared"))
UPSTREAM = Path(os.environ.get("ARGENTINA_DATOS_SOURCE", SHARED / "upstream"))
HISTORY = Path(os.environ.get("ARGENTINA_DATOS_HISTORY", SHARED / "upstream-history"))
# every version of 20 routes (upstream's git history); build-db reads it by default beside the source
BUNDLE = Path(os.environ.get("ARGENTINA_DATOS_VERSIONES", UPSTREAM.parent / "upstream-versions" / "upstream.bundle"))
REFERENCES = Path(os.environ.get("ARGENTINA_DATOS_REFERENCIAS", UPSTREAM.parent / "referencias" / "cifras.tsv"))
TEST_DB = Path(os.environ.get("ARGENTINA_DATOS_TEST_DB", REPO / "build" / "argentina-test.db"))
