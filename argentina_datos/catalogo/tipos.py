"""Value kinds of the catalogue's fields (esquema.Field, parametros.Param).

NUMBER columns (prices, rates, indices, amounts) are REAL, so that `valor / 100` in SQL never
truncates; a whole value reads back as an integer (upstream's JSON writes no `4.0`), so that /v1
writes upstream's 4 back as 4 and its 4.5 as 4.5 (almacen/registros.py).
"""

TEXT, INTEGER, NUMBER, BOOLEAN, JSON = "text", "integer", "number", "boolean", "json"
