/* The nomic wiki: tables with class "nomic-sortable" sort when a column heading is clicked.
   Cells may carry data-value (what to sort by); headings say data-sort="number" or "text".
   A table or a drawing wider than its column scrolls sideways in its own box; its edge fades on the
   side where more of it lies (data-nomic-more="left", "right" or "both"; nomic.css), so a reader on a
   phone sees there is more. Everything else on the wiki works without JavaScript. */
(function () {
  "use strict";

  function cellValue(row, index) {
    var cell = row.children[index];
    if (!cell) return "";
    return cell.hasAttribute("data-value") ? cell.getAttribute("data-value") : cell.textContent.trim();
  }

  function sortBy(table, index, kind, descending) {
    var body = table.tBodies[0];
    if (!body) return;
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellValue(a, index), y = cellValue(b, index), r;
      if (kind === "number") {
        r = (parseFloat(x) || 0) - (parseFloat(y) || 0);
      } else {
        r = x.localeCompare(y, undefined, { numeric: true, sensitivity: "base" });
      }
      return descending ? -r : r;
    });
    rows.forEach(function (row) { body.appendChild(row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      if (i === index) th.setAttribute("aria-sort", descending ? "descending" : "ascending");
      else th.removeAttribute("aria-sort");
    });
  }

  function setup(table) {
    if (table.getAttribute("data-sortable-ready") || !table.tHead) return;
    table.setAttribute("data-sortable-ready", "1");
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
      th.setAttribute("tabindex", "0");
      th.setAttribute("role", "button");
      th.title = th.title || "sort by this column";
      function go() {
        var descending = th.getAttribute("aria-sort") === "ascending";
        sortBy(table, index, th.getAttribute("data-sort") || "text", descending);
      }
      th.addEventListener("click", go);
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); }
      });
    });
  }

  // the wiki's own tables scroll themselves; a Markdown table (a module's page) scrolls in Material's wrapper
  var SCROLLERS = 'article table[class^="nomic-"], article div[style*="overflow-x"], article .md-typeset__scrollwrap';

  function markMore(box) {
    var left = box.scrollLeft > 1, right = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
    var more = left && right ? "both" : left ? "left" : right ? "right" : "";
    if (more) box.setAttribute("data-nomic-more", more);
    else box.removeAttribute("data-nomic-more");
  }

  function markAll() {
    Array.prototype.forEach.call(document.querySelectorAll(SCROLLERS), markMore);
  }

  function watchScroll(box) {
    if (box.getAttribute("data-nomic-watched")) return;
    box.setAttribute("data-nomic-watched", "1");
    box.addEventListener("scroll", function () { markMore(box); }, { passive: true });
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("table.nomic-sortable"), setup);
    Array.prototype.forEach.call(document.querySelectorAll(SCROLLERS), watchScroll);
    markAll();
  }

  window.addEventListener("resize", markAll);

  // Material's instant navigation replaces the page without a load event; document$ covers both.
  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
