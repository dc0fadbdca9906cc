"""docs/planilla.md («En una planilla»): every URL of the page, asked as a spreadsheet would, is a small CSV
with one header row and the rows asked for, so that the page stays true."""

import csv
import io
import re

from paths import REPO

PAGE = REPO / "docs" / "planilla.md"
HOST = "http://127.0.0.1:8001"
# A URL of the page up to a quote, a backtick or a space; one a formula continues («..." & TEXTO(A1...») is
# only its first part, not a URL of its own.
URL = re.compile(re.escape(HOST) + r'(/[^"\s`]*)("\s*&)?')
SMALL = 100 * 1024  # what Google Sheets' IMPORTDATA caches of one URL


def page_urls() -> list[str]:
    return list(dict.fromkeys(m.group(1) for m in URL.finditer(PAGE.read_text()) if not m.group(2)))


def test_the_page_has_a_url_for_each_need():
    urls = page_urls()
    for needed in ("/v1/finanzas/indices/inflacion", "/v1/cotizaciones/dolares/blue", "fci_serie", "plazo_fijo"):
        assert any(needed in u for u in urls), needed


async def test_every_url_of_the_page_is_a_small_csv_with_one_header(ds):
    urls = page_urls()
    assert len(urls) >= 6
    for url in urls:
        response = await ds.client.get(url)
        assert response.status_code == 200, (url, response.text[:300])
        assert response.headers["content-type"].split(";")[0] in ("text/csv", "text/plain"), url
        assert 0 < len(response.content) < SMALL, (url, len(response.content))
        rows = list(csv.reader(io.StringIO(response.content.decode("utf-8"))))
        header, data = rows[0], rows[1:]
        assert header and all(re.fullmatch(r"[A-Za-z_]+", name) for name in header), (url, header)
        assert len(set(header)) == len(header), url
        assert data and header not in data, (url, rows[:3])  # the rows asked for, under one header
        assert all(len(r) == len(header) for r in data), url
        if "desde=2025-06&hasta=2025-06" in url or "fecha=20" in url or "desde=2025-01-02&hasta=2025-01-02" in url:
            assert len(data) == 1, (url, data)  # a month, a day: one row
        if "desde=2024&hasta=2024" in url:
            assert len(data) == 12, url  # a year of months
