"""Publishing the database as static files: the /v1 tree (``exportar-v1``) and every table as Parquet
(``exportar-parquet``)."""
