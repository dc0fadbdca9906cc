"""Build argentina.db from a source: ``python build_db.py --source DIR_OR_URL --output argentina.db``."""

import sys

from argentina_datos.construccion.comando import main

if __name__ == "__main__":
    sys.exit(main())
