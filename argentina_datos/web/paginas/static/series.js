// The series explorer (/-/series): searches /v1/series, asks /v1/series/datos and draws it with Vega-Lite.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const PARAMS = ["desde", "hasta", "agrupar", "funcion", "dias", "variacion", "ajustar", "base", "publicado"];
  const chosen = new Map(); // id -> title
  // Vega's number and date formats in Spanish (Argentina): 1.430,5 and «ene 2024», as the pages' tables.
  const FORMAT_LOCALE = { decimal: ",", thousands: ".", grouping: [3], currency: ["$", ""] };
  const TIME_LOCALE = {
    dateTime: "%A, %e de %B de %Y, %X",
    date: "%d/%m/%Y",
    time: "%H:%M:%S",
    periods: ["AM", "PM"],
    days: ["domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"],
    shortDays: ["dom", "lun", "mar", "mié", "jue", "vie", "sáb"],
    months: ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"],
    shortMonths: ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"],
  };

  function say(text) {
    $("series-error").textContent = text || "";
  }

  async function fetchJson(url) {
    const response = await fetch(url);
    const body = await response.json();
    if (!response.ok) throw new Error(body.mensaje || "error " + response.status);
    return body;
  }

  // The fields a search can be narrowed by, from what the found series carry: their theme, and what names or
  // describes them (a fund's category and currency, a bank, the REM's sample).
  const FACETS = [
    ["tema", "tema", (s) => s.tema],
    ["categoria", "categoría", (s) => s.atributos.categoria],
    ["moneda", "moneda", (s) => s.atributos.moneda],
    ["entidad", "entidad", (s) => (s.tabla === "fci_serie" ? undefined : s.atributos.entidad)],
    ["muestra", "muestra", (s) => s.atributos.muestra],
  ];
  const filters = new Map(); // facet -> value, sent to /v1/series
  let asked = 0; // the last search sent: an older answer arriving later is dropped

  function showChosen() {
    const box = $("series-elegidas");
    box.textContent = chosen.size ? "Elegidas: " : "";
    for (const [id, title] of chosen) {
      const drop = Object.assign(document.createElement("button"), { type: "button", textContent: "×", title: "quitar " + id });
      drop.addEventListener("click", () => {
        chosen.delete(id);
        showChosen();
        const box = document.querySelector(`#series-lista input[value="${CSS.escape(id)}"]`);
        if (box) box.checked = false;
      });
      box.append(Object.assign(document.createElement("span"), { textContent: title + " " }), drop, " ");
    }
  }

  function showFacets(series) {
    const place = $("series-facetas");
    place.textContent = "";
    for (const [name, label, of] of FACETS) {
      const counts = new Map();
      for (const s of series) {
        const value = of(s);
        if (value !== undefined && value !== null) counts.set(value, (counts.get(value) || 0) + 1);
      }
      if (filters.has(name) && !counts.has(filters.get(name))) counts.set(filters.get(name), 0);
      if (!counts.size || (series.length < 2 && !filters.has(name))) continue;
      const set = document.createElement("fieldset");
      set.append(Object.assign(document.createElement("legend"), { textContent: label }));
      for (const [value, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 12)) {
        const on = filters.get(name) === String(value);
        const button = Object.assign(document.createElement("button"), { type: "button", textContent: `${value} (${n})` });
        button.dataset.faceta = name;
        button.setAttribute("aria-pressed", String(on));
        button.addEventListener("click", () => {
          if (on) filters.delete(name);
          else filters.set(name, String(value));
          search($("series-q").value);
        });
        set.append(button);
      }
      place.append(set);
    }
  }

  function showList(series) {
    const list = $("series-lista");
    list.textContent = "";
    for (const s of series) {
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.value = s.id;
      box.checked = chosen.has(s.id);
      box.addEventListener("change", () => {
        if (box.checked) chosen.set(s.id, s.titulo);
        else chosen.delete(s.id);
        showChosen();
      });
      label.append(box, " " + s.titulo + " ", Object.assign(document.createElement("code"), { textContent: s.id }));
      label.append(` (${s.unidad || "sin unidad"}, ${s.frecuencia}, ${s.desde} a ${s.hasta})`);
      if (s.atrasada) label.append(" ", Object.assign(document.createElement("span"), { className: "atrasada", textContent: "atrasada" }));
      if (s.calidad) label.append(" ", Object.assign(document.createElement("span"), { className: "dudosa", textContent: s.calidad + " en calidad" }));
      list.append(label);
    }
    if (!series.length) list.textContent = "Ninguna serie coincide.";
  }

  async function search(q) {
    say("");
    const p = new URLSearchParams({ limite: "200" });
    if (q) p.set("q", q);
    for (const [name, value] of filters) p.set(name, value);
    const mine = ++asked;
    try {
      const series = await fetchJson("/v1/series?" + p.toString());
      if (mine !== asked) return;
      $("series-cuantas").textContent = series.length >= 200 ? "las primeras 200; afine la búsqueda" : `${series.length} series`;
      showFacets(series);
      showList(series);
    } catch (e) {
      if (mine === asked) say(e.message);
    }
  }

  function query() {
    const p = new URLSearchParams();
    p.set("ids", [...chosen.keys()].join(","));
    for (const name of PARAMS) {
      const value = $("series-" + name).value;
      if (value) p.set(name, value);
    }
    if (p.get("funcion") && !p.get("agrupar")) p.delete("funcion");
    if (p.get("base") && p.get("ajustar") !== "ipc") p.delete("base");
    return p;
  }

  async function show() {
    say("");
    if (!chosen.size) return say("Elija al menos una serie.");
    const p = query();
    const page = new URLSearchParams(p);
    if ($("series-indice").value) page.set("indice", $("series-indice").value);
    if ($("series-primera").value) page.set("primera", $("series-primera").value);
    history.replaceState(null, "", "?" + page.toString());
    // The table as a file: a CSV (point decimals) and a workbook, which a spreadsheet in any language reads alike
    for (const format of ["csv", "xlsx"]) {
      const file = new URLSearchParams(p);
      file.set("formato", format);
      $("series-" + format).href = "/v1/series/datos?" + file.toString();
      $("series-" + format).hidden = false;
    }
    try {
      // The chart also asks which points the calidad table doubts (the URL and the CSV stay as chosen).
      const marked = new URLSearchParams(p);
      marked.set("marcar", "calidad");
      const answer = await fetchJson("/v1/series/datos?" + marked.toString());
      for (const s of answer.series) chosen.set(s.id, s.titulo);
      showChosen();
      draw(answer, await firstReleases(p, answer));
    } catch (e) {
      $("series-grafico").textContent = "";
      say(e.message);
    }
  }

  // «Primera publicación»: the same query with publicado=primera, of the chosen series whose route has stored
  // versions (its «publicacion» in the catalogue), drawn dashed beside the current values.
  async function firstReleases(p, answer) {
    $("series-primera-nota").textContent = "";
    if ($("series-primera").value !== "primera" || p.get("publicado")) return null;
    const versioned = answer.series.filter((s) => s.publicacion);
    const without = answer.series.filter((s) => !s.publicacion).map((s) => s.titulo);
    if (without.length) $("series-primera-nota").textContent = "Sin versiones guardadas (sin primera publicación): " + without.join(", ") + ".";
    if (!versioned.length) return null;
    const first = new URLSearchParams(p);
    first.set("ids", versioned.map((s) => s.id).join(","));
    first.set("publicado", "primera");
    return fetchJson("/v1/series/datos?" + first.toString());
  }

  function draw(answer, released) {
    // «Comparar: índice»: each series over its first value in the range, times 100, so a fund in pesos and the
    // dollar share one axis (did the fund beat the dollar?).
    const indexed = $("series-indice").value === "100";
    const first = {};
    for (const row of answer.datos) {
      for (const s of answer.series) if (first[s.id] === undefined && row[s.id]) first[s.id] = row[s.id];
    }
    const unit = (s) => (indexed ? "índice, primer valor = 100" : s.unidad);
    const titles = Object.fromEntries(answer.series.map((s) => [s.id, s.titulo + (unit(s) ? " (" + unit(s) + ")" : "")]));
    // Series of different units (pesos, percent) on one axis flatten each other: one chart per series then.
    const units = new Set(answer.series.map(unit));
    const partial = Object.fromEntries(answer.series.map((s) => [s.id, new Set(s.parciales || [])]));
    const values = [];
    const doubts = new Set();
    let doubtful = 0;
    for (const row of answer.datos) {
      for (const s of answer.series) {
        const value = row[s.id];
        if (value === null || value === undefined) continue;
        const parcial = partial[s.id].has(row.fecha);
        const dudoso = row[s.id + ":calidad"] || null;
        if (dudoso) {
          doubtful += 1;
          for (const c of dudoso.split("; ")) doubts.add(c);
        }
        values.push({ fecha: row.fecha, serie: titles[s.id], valor: indexed ? (value / first[s.id]) * 100 : value, parcial, dato: parcial ? "período parcial" : "completo", dudoso, version: "actual" });
      }
    }
    for (const row of released ? released.datos : []) {
      for (const s of released.series) {
        const value = row[s.id];
        if (value === null || value === undefined || first[s.id] === undefined) continue;
        const publicado = row[s.id + ":publicado"];
        values.push({ fecha: row.fecha, serie: titles[s.id], valor: indexed ? (value / first[s.id]) * 100 : value, parcial: false, dato: "primera publicación: " + publicado, dudoso: null, version: "primera publicación" });
      }
    }
    $("series-dudosos").textContent = doubtful
      ? `${doubtful} ${doubtful === 1 ? "valor" : "valores"} en tramos dudosos (rombos rojos): ${[...doubts].join(", ")}. ` +
        "Los valores son los publicados; la tabla calidad dice por qué."
      : "";
    const encoding = {
      x: { field: "fecha", type: "temporal", title: "fecha" },
      y: { field: "valor", type: "quantitative", title: indexed ? "índice (primer valor = 100)" : "valor" },
      color: { field: "serie", type: "nominal", title: "serie", legend: { orient: "bottom", labelLimit: 600 } },
    };
    // A period the series does not cover whole (its first or last: «parciales» of /v1/series/datos) is drawn as
    // a hollow point, said in its tooltip.
    const layer = [
      { mark: { type: "line" }, encoding: { ...encoding, strokeDash: { field: "version", type: "nominal", title: "valores", legend: released ? {} : null } } },
      {
        mark: { type: "point", tooltip: true, filled: true },
        encoding: {
          ...encoding,
          fillOpacity: { condition: { test: "datum.parcial", value: 0 }, value: 1 },
          size: { condition: { test: "datum.parcial", value: 80 }, value: 25 },
          tooltip: [{ field: "serie" }, { field: "fecha", type: "temporal" }, { field: "valor", format: ",.4~f" }, { field: "dato" }],
        },
      },
      // The flagged points drawn over the line: red diamonds, with the findings' checks in their tooltip.
      {
        transform: [{ filter: "datum.dudoso" }],
        mark: { type: "point", shape: "diamond", filled: true, size: 70, color: "#c0392b" },
        encoding: {
          ...encoding,
          color: { value: "#c0392b" },
          tooltip: [{ field: "fecha", type: "temporal" }, { field: "valor", format: ",.4~f" }, { field: "serie" }, { field: "dudoso", title: "calidad" }],
        },
      },
    ];
    $("series-parciales").hidden = !values.some((v) => v.parcial);
    const width = Math.max(400, $("series-grafico").clientWidth - 80);
    const spec =
      units.size > 1
        ? {
            data: { values },
            facet: { row: { field: "serie", type: "nominal", title: null, header: { labelAngle: 0, labelAlign: "left", labelAnchor: "start", labelOrient: "top" } } },
            spec: { width, height: 200, layer },
            resolve: { scale: { y: "independent" } },
          }
        : { width, height: 340, data: { values }, layer };
    spec.$schema = "https://vega.github.io/schema/vega-lite/v5.json";
    vegaEmbed("#series-grafico", spec, { actions: false, formatLocale: FORMAT_LOCALE, timeFormatLocale: TIME_LOCALE });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const start = new URLSearchParams(location.search);
    for (const name of PARAMS) if (start.get(name)) $("series-" + name).value = start.get(name);
    $("series-q").value = start.get("q") || "";
    if (start.get("indice")) $("series-indice").value = start.get("indice");
    if (start.get("primera")) $("series-primera").value = start.get("primera");
    for (const id of (start.get("ids") || "").split(",").filter(Boolean)) chosen.set(id, id);
    $("series-buscar").addEventListener("submit", (e) => {
      e.preventDefault();
      search($("series-q").value);
    });
    // Search as one types: a pause of 200 ms after the last key.
    let typing;
    $("series-q").addEventListener("input", () => {
      clearTimeout(typing);
      typing = setTimeout(() => search($("series-q").value), 200);
    });
    $("series-ver").addEventListener("submit", (e) => {
      e.preventDefault();
      show();
    });
    search(start.get("q") || "");
    if (chosen.size) show();
  });
})();
