// The table and row pages of argentina-datos (web/paginas): called by the page's body script
// (extra_body_script in __init__.py) with what the page needs.
window.argentinaDatos = (function () {
  // Folds the column descriptions and turns `x` into <code>x</code>, on the text Datasette escaped.
  function foldColumnDescriptions() {
    document.querySelectorAll("dl.column-descriptions").forEach(function (dl) {
      dl.querySelectorAll("dd").forEach(function (dd) {
        var parts = dd.textContent.split("`");
        if (parts.length < 3) return;
        dd.textContent = "";
        parts.forEach(function (part, i) {
          if (i % 2) { var code = document.createElement("code"); code.textContent = part; dd.appendChild(code); }
          else dd.appendChild(document.createTextNode(part));
        });
      });
      var details = document.createElement("details");
      details.className = "descripciones-de-columnas";
      var summary = document.createElement("summary");
      summary.textContent = "Qué es cada columna (" + dl.querySelectorAll("dt").length + ")";
      dl.parentNode.insertBefore(details, dl);
      details.appendChild(summary);
      details.appendChild(dl);
    });
  }

  // "1 fila", "12.389 filas": as the pages' templates write a count (castellano.rows).
  function rows(n) {
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ".") + (n === 1 ? " fila" : " filas");
  }

  // A row page is titled by the row's label (a senator's name) rather than by its key.
  function titleRowByLabel(label) {
    var cell = document.querySelector("table.rows-and-columns td.col-" + label);
    var h1 = document.querySelector(".page-header h1") || document.querySelector("h1");
    if (!cell || !h1 || !cell.textContent.trim()) return;
    h1.textContent = h1.textContent.split(":")[0] + ": " + cell.textContent.trim();
    document.title = h1.textContent;
  }

  // A row page lists the rows of other tables that name it (a senator's trips and votes), with their
  // count, asked of this same server.
  function listRelatedRows(related) {
    var table = document.querySelector("table.rows-and-columns");
    if (!table) return;
    var box = document.createElement("div");
    box.className = "filas-relacionadas";
    var title = document.createElement("h2");
    title.textContent = "Filas que nombran a esta";
    var list = document.createElement("ul");
    list.className = "bullets";
    related.forEach(function (r) {
      var cell = table.querySelector("td.col-" + r.key);
      var value = cell && cell.textContent.trim();
      if (!value) return;
      var href = r.url + "?" + encodeURIComponent(r.column) + "=" + encodeURIComponent(value);
      var item = document.createElement("li");
      var a = document.createElement("a");
      a.href = href;
      a.textContent = r.title + " (" + r.table + "." + r.column + " = " + value + ")";
      item.appendChild(a);
      list.appendChild(item);
      fetch(r.url + ".json?_size=0&" + encodeURIComponent(r.column) + "=" + encodeURIComponent(value))
        .then(function (res) { return res.json(); })
        .then(function (data) { item.appendChild(document.createTextNode(": " + rows(data.filtered_table_rows_count))); });
    });
    if (!list.children.length) return;
    box.appendChild(title);
    box.appendChild(list);
    table.parentNode.insertBefore(box, table.nextSibling);
  }

  // Datasette's table.js (deferred: it runs after this page's body script) writes its column menu and
  // the filters' remove buttons in English: once it has run, they are put in Spanish.
  var MENU = {
    "dropdown-sort-asc": "Ordenar de menor a mayor",
    "dropdown-sort-desc": "Ordenar de mayor a menor",
    "dropdown-facet": "Facetar por esta columna",
    "dropdown-hide-column": "Ocultar esta columna",
    "dropdown-show-all-columns": "Mostrar todas las columnas",
    "dropdown-not-blank": "Sólo las filas con valor"
  };

  function translateColumnMenus() {
    function translate() {
      Object.keys(MENU).forEach(function (name) {
        document.querySelectorAll(".dropdown-menu a." + name).forEach(function (a) { a.textContent = MENU[name]; });
      });
      document.querySelectorAll('.filter-row a[aria-label="Remove this filter"]').forEach(function (a) {
        a.setAttribute("aria-label", "Quitar este filtro");
      });
      // The menu's "Type: REAL NOT NULL" is rewritten by table.js each time the menu opens.
      document.querySelectorAll(".dropdown-menu .dropdown-column-type").forEach(function (p) {
        new MutationObserver(function () {
          if (p.textContent.indexOf("Type: ") === 0) p.textContent = "Tipo: " + p.textContent.slice(6);
        }).observe(p, { childList: true, characterData: true, subtree: true });
      });
    }
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", translate);
    else translate();
  }

  // The pages of datasette-dashboards (its own templates, which this plugin cannot reliably take the
  // place of: Datasette orders the plugins' template folders at random) put in Spanish.
  var DASHBOARD_WORDS = {
    "home": "Inicio",
    "dashboards": "Gráficos",
    "Dashboards": "Gráficos",
    "Fullscreen": "Pantalla completa",
    "View and edit SQL": "Ver y editar el SQL",
    "No dashboards found": "No hay gráficos"
  };

  function translateDashboard() {
    document.querySelectorAll(".crumbs a, h1, button, p, span.underlined").forEach(function (el) {
      if (el.children.length) return;
      var words = el.textContent.trim();
      if (Object.prototype.hasOwnProperty.call(DASHBOARD_WORDS, words)) el.textContent = DASHBOARD_WORDS[words];
    });
    document.querySelectorAll('input[type="submit"][value="Apply"]').forEach(function (input) { input.value = "Aplicar"; });
    if (document.title === "Dashboards") document.title = "Gráficos";
  }

  return {
    translateDashboard: translateDashboard,
    translateColumnMenus: translateColumnMenus,
    foldColumnDescriptions: foldColumnDescriptions,
    titleRowByLabel: titleRowByLabel,
    listRelatedRows: listRelatedRows
  };
})();
