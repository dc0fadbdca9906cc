// The series explorer (/-/series): searches /v1/series, asks /v1/series/datos and draws it with Vega-Lite.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const PARAMS = ["desde", "hasta", "agrupar", "funcion", "variacion", "ajustar", "base", "publicado"];
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

  function showList(series) {
    const list = $("series-lista");
    list.textContent = "";
    for (const s of series) {
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.value = s.id;
      box.checked = chosen.has(s.id);
      box.addEventListener("change", () => (box.checked ? chosen.set(s.id, s.titulo) : chosen.delete(s.id)));
      label.append(box, " " + s.titulo + " ", Object.assign(document.createElement("code"), { textContent: s.id }));
      label.append(` (${s.unidad || "sin unidad"}, ${s.frecuencia}, ${s.desde} a ${s.hasta})`);
      if (s.atrasada) label.append(" ", Object.assign(document.createElement("span"), { className: "atrasada", textContent: "atrasada" }));
      list.append(label);
    }
    if (!series.length) list.textContent = "Ninguna serie coincide.";
  }

  async function search(q) {
    say("");
    try {
      showList(await fetchJson("/v1/series" + (q ? "?q=" + encodeURIComponent(q) : "")));
    } catch (e) {
      say(e.message);
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
    history.replaceState(null, "", "?" + p.toString());
    const csv = new URLSearchParams(p);
    csv.set("formato", "csv");
    $("series-csv").href = "/v1/series/datos?" + csv.toString();
    $("series-csv").hidden = false;
    try {
      const answer = await fetchJson("/v1/series/datos?" + p.toString());
      for (const s of answer.series) chosen.set(s.id, s.titulo);
      draw(answer);
    } catch (e) {
      $("series-grafico").textContent = "";
      say(e.message);
    }
  }

  function draw(answer) {
    const titles = Object.fromEntries(answer.series.map((s) => [s.id, s.titulo + (s.unidad ? " (" + s.unidad + ")" : "")]));
    // Series of different units (pesos, percent) on one axis flatten each other: one chart per series then.
    const units = new Set(answer.series.map((s) => s.unidad));
    const values = [];
    for (const row of answer.datos) {
      for (const s of answer.series) {
        if (row[s.id] !== null && row[s.id] !== undefined) values.push({ fecha: row.fecha, serie: titles[s.id], valor: row[s.id] });
      }
    }
    const encoding = {
      x: { field: "fecha", type: "temporal", title: "fecha" },
      y: { field: "valor", type: "quantitative", title: "valor" },
      color: { field: "serie", type: "nominal", title: "serie", legend: { orient: "bottom", labelLimit: 600 } },
    };
    const width = Math.max(400, $("series-grafico").clientWidth - 80);
    const spec =
      units.size > 1
        ? {
            data: { values },
            facet: { row: { field: "serie", type: "nominal", title: null, header: { labelAngle: 0, labelAlign: "left", labelAnchor: "start", labelOrient: "top" } } },
            spec: { width, height: 200, mark: { type: "line", point: true, tooltip: true }, encoding },
            resolve: { scale: { y: "independent" } },
          }
        : { width, height: 340, data: { values }, mark: { type: "line", point: true, tooltip: true }, encoding };
    spec.$schema = "https://vega.github.io/schema/vega-lite/v5.json";
    vegaEmbed("#series-grafico", spec, { actions: false, formatLocale: FORMAT_LOCALE, timeFormatLocale: TIME_LOCALE });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const start = new URLSearchParams(location.search);
    for (const name of PARAMS) if (start.get(name)) $("series-" + name).value = start.get(name);
    $("series-q").value = start.get("q") || "";
    for (const id of (start.get("ids") || "").split(",").filter(Boolean)) chosen.set(id, id);
    $("series-buscar").addEventListener("submit", (e) => {
      e.preventDefault();
      search($("series-q").value);
    });
    $("series-ver").addEventListener("submit", (e) => {
      e.preventDefault();
      show();
    });
    search(start.get("q") || "");
    if (chosen.size) show();
  });
})();
