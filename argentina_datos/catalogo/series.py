"""The catalogue of series, declared from the datasets: each measure of a dataset with a ``Series``
(``values``), for each value of its naming fields (``by``: a casa, a moneda), is one series.

Only declarations: which measure, of which kind and unit, how often, on which /v1 route.  The values of
the naming fields are the data's (respuestas/catalogo_series.py reads them); a new dataset with a
``Series`` gets its series without more code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from argentina_datos.catalogo import DATASETS, THEMES
from argentina_datos.catalogo.esquema import Dataset, Field, PathValue, Route, flat_columns
from argentina_datos.catalogo.indices import CURRENCIES

# The peso's last change of unit (catalogo/indices.py, CURRENCIES): an amount of a day before it is not
# comparable with one after, and no conversion multiplies across it.
LAST_CURRENCY_CHANGE = CURRENCIES[-1][1]
CURRENCY_CHANGE = "; ".join(
    f"el {start} el {name} reemplazó al {before} ({units:,} = 1)".replace(",", ".")
    for (before, _, _), (name, start, units) in reversed(list(zip(CURRENCIES, CURRENCIES[1:])))
)


@dataclass(frozen=True)
class SeriesSpec:
    """One measure of a dataset: the series it makes, one per value of ``by`` (or one, without ``by``)."""

    dataset: Dataset
    field: Field
    kind: str
    frequency: str
    late_after: int
    theme: str  # the catalogue module of its dataset: cotizaciones, indices, tasas...
    route: str  # the dataset's list route (/v1/cotizaciones/dolares)
    # A route that publishes one series alone, with its ``by`` values in the path (/v1/cotizaciones/dolares/{casa}).
    by_route: Optional[Route]
    single: bool  # the dataset's only measure: its ids need not name it

    @property
    def by(self) -> Sequence[str]:
        assert self.dataset.series is not None
        return self.dataset.series.by

    def series_id(self, values: Sequence) -> str:
        """A stable, readable id: the table, the naming values, the measure (unless it is the only one):
        ``inflacion``, ``cotizaciones_dolares.blue.venta``."""
        parts = [self.dataset.table, *(str(v) for v in values)]
        if not self.single:
            parts.append(self.field.name)
        return ".".join(parts)

    def route_of(self, values: Sequence) -> str:
        """The /v1 route that publishes this series: its own route if it has one, else the dataset's list."""
        if self.by_route is None:
            return self.route
        named = dict(zip(self.by, values))
        path = self.by_route.path
        for column, value in self.by_route.where.items():
            assert isinstance(value, PathValue)
            path = path.replace("{" + value.name + "}", str(named[column]))
        return path


def _list_route(dataset: Dataset) -> Optional[str]:
    return next((r.path for r in dataset.routes if not r.params and r.shape == "list"), None)


def _by_route(dataset: Dataset, by: Sequence[str]) -> Optional[Route]:
    """A route of another list of the same records whose path names exactly the ``by`` columns."""
    if not by:
        return None
    for other in DATASETS:
        if other.same_records_as != dataset.table:
            continue
        for route in other.routes:
            where = route.where
            if (
                route.shape == "list"
                and set(where) == set(by)
                and all(isinstance(v, PathValue) and v.name == c and not v.convert for c, v in where.items())
            ):
                return route
    return None


def specs() -> list[SeriesSpec]:
    """Every measure of every dataset declared as a series with ``values``, in catalogue order."""
    out = []
    for theme in THEMES:
        for dataset in theme.DATASETS:
            series = dataset.series
            route = _list_route(dataset)
            if series is None or not series.values or route is None:
                continue
            fields = dict(flat_columns(dataset.fields))
            for measure in series.values:
                out.append(
                    SeriesSpec(
                        dataset,
                        fields[measure],
                        series.kind(measure),
                        series.frequency,
                        series.cadence,
                        theme.__name__.rsplit(".", 1)[-1],
                        route,
                        _by_route(dataset, series.by),
                        len(series.values) == 1,
                    )
                )
    return out


SPECS = specs()
THEMES_WITH_SERIES = tuple(dict.fromkeys(s.theme for s in SPECS))

# The data a deployment exists for: while one of these datasets is late (its newest observation older than
# its cadence allows), /-/salud.json is not «ok» and `build-db --fallar-si-atrasada` (scripts/update.sh) fails.
ESSENTIAL = ("cotizaciones_dolares", "inflacion", "inflacion_interanual", "uva", "riesgo_pais")
