// The floor board's "Today so far" table (#live-figures): refreshed from the
// board's data every 15 seconds, beside the tiles. A failed refresh leaves the
// figures as they were; the board's own warning says the refresh failed.
(function () {
  "use strict";
  const table = document.getElementById("live-figures");
  if (!table) return;
  function fill(row, figures) {
    if (!row || !figures) return;
    for (const cell of row.querySelectorAll("[data-field]")) {
      const value = figures[cell.dataset.field];
      if (value !== undefined) cell.textContent = value;
    }
    const win = row.querySelector("[data-field=win]");
    const winCell = win && (win.closest("td") || win);
    if (winCell) winCell.classList.toggle("negative", Boolean(figures.negative));
  }
  async function refresh() {
    try {
      const response = await fetch(table.dataset.url, {headers: {"Accept": "application/json"}});
      if (!response.ok) return;
      const state = await response.json();
      for (const t of state.tables) {
        fill(table.querySelector(`tr[data-table="${CSS.escape(t.table_id)}"]`), t.live);
      }
      for (const p of state.pits || []) {
        fill(table.querySelector(`tr[data-pit="${CSS.escape(p.pit)}"]`), p);
      }
      fill(table.querySelector("tr[data-total]"), state.total);
    } catch (error) { /* keep the last figures */ }
  }
  setInterval(refresh, 15000);
})();
