// @ts-check
/*
 * The console's usage chart and table: the chart's scroller opens at the newest day (on a
 * phone the 30 days are wider than the screen: today must be in view, not the oldest day),
 * and each folded run of days without calls can be opened ("Show them").
 */
'use strict';
{
  document.querySelectorAll('.chart-scroll').forEach(function (scroller) {
    if (scroller instanceof HTMLElement && scroller.scrollWidth > scroller.clientWidth) {
      scroller.scrollLeft = scroller.scrollWidth;
    }
  });

  const table = document.getElementById('usage-days');
  if (table) {
    table.querySelectorAll('button[data-toggle-run]').forEach(function (button) {
      if (button instanceof HTMLButtonElement) button.hidden = false;
    });
    table.addEventListener('click', function (event) {
      const button =
        event.target instanceof Element ? event.target.closest('button[data-toggle-run]') : null;
      if (!(button instanceof HTMLButtonElement)) return;
      const run = button.getAttribute('data-toggle-run');
      const open = button.getAttribute('aria-expanded') !== 'true';
      table.querySelectorAll('tr[data-run="' + run + '"]').forEach(function (row) {
        if (row instanceof HTMLElement) row.hidden = !open;
      });
      button.setAttribute('aria-expanded', open ? 'true' : 'false');
      button.textContent = open ? 'Hide them' : 'Show them';
    });
  }
}
