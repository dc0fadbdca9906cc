"""Value kinds of the catalogue's fields (esquema.Field, parametros.Param).

NUMBER columns (prices, rates, indices, amounts) are REAL, so that `valor / 100` in SQL never
truncates (almacen/registros.py).  /v1 answers upstream's own text, never these columns.
"""

TEXT, INTEGER, NUMBER, BOOLEAN, JSON = "text", "integer", "number", "boolean", "json"
