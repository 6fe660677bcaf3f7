// @ts-check
/* The API reference page (/docs): sample tabs, copy buttons, and the Try it forms, which call
 * this origin with the key typed on the page (kept in sessionStorage for the tab only). */
(function () {
  'use strict';
  var keyInput = /** @type {HTMLInputElement} */ (document.getElementById('api-key'));
  if (!keyInput) return;
  try {
    keyInput.value = sessionStorage.getItem('seo-api-key') || '';
  } catch {
    /* storage refused: the key is typed each time */
  }
  keyInput.addEventListener('change', function () {
    try {
      sessionStorage.setItem('seo-api-key', keyInput.value);
    } catch {
      /* ignore */
    }
  });

  // The operations list is sent closed, so a phone opens on the reference without the page
  // jumping once this script runs (it did: a layout shift of 0.84 on Lighthouse). Beside the
  // reference (a wide screen) it sits in its own column, so opening it here moves nothing.
  if (window.matchMedia('(min-width: 901px)').matches) {
    var toc = /** @type {HTMLDetailsElement | null} */ (document.querySelector('.toc details'));
    if (toc) toc.open = true;
  }

  /** @param {HTMLElement} tab */
  function select(tab) {
    var list = tab.parentElement;
    if (!list) return;
    list.querySelectorAll('[role="tab"]').forEach(function (el) {
      var t = /** @type {HTMLElement} */ (el);
      var on = t === tab;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
      var panel = document.getElementById(t.getAttribute('aria-controls') || '');
      if (panel) panel.hidden = !on;
    });
  }
  document.querySelectorAll('[role="tablist"]').forEach(function (list) {
    /** @type {HTMLElement[]} */
    var tabs = Array.prototype.slice.call(list.querySelectorAll('[role="tab"]'));
    tabs.forEach(function (tab, i) {
      tab.addEventListener('click', function () {
        select(tab);
      });
      tab.addEventListener('keydown', function (/** @type {KeyboardEvent} */ ev) {
        var next = ev.key === 'ArrowRight' ? i + 1 : ev.key === 'ArrowLeft' ? i - 1 : null;
        if (next === null) return;
        var t = tabs[(next + tabs.length) % tabs.length];
        select(t);
        t.focus();
      });
    });
  });

  document.querySelectorAll('.copy').forEach(function (button) {
    button.addEventListener('click', function () {
      var holder = button.parentElement && button.parentElement.querySelector('code');
      var code = holder ? holder.textContent || '' : '';
      if (navigator.clipboard) {
        navigator.clipboard.writeText(code).then(
          function () {
            button.textContent = 'Copied';
          },
          function () {
            button.textContent = 'Copy failed';
          },
        );
      }
    });
  });

  /**
   * @param {Element} out
   * @param {string} status
   * @param {string} text
   */
  function show(out, status, text) {
    out.textContent = '';
    var line = document.createElement('p');
    line.className = 'status-line';
    line.textContent = status;
    var pre = document.createElement('pre');
    pre.tabIndex = 0;
    var code = document.createElement('code');
    code.textContent = text;
    pre.appendChild(code);
    out.appendChild(line);
    out.appendChild(pre);
  }

  document.querySelectorAll('form.try').forEach(function (form) {
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var out = form.querySelector('.result');
      var path = form.getAttribute('data-path');
      if (!out || path === null) return;
      var result = out;
      var target = path;
      var query = new URLSearchParams();
      form.querySelectorAll('input[data-in]').forEach(function (el) {
        var input = /** @type {HTMLInputElement} */ (el);
        if (input.getAttribute('data-in') === 'path')
          target = target.replace('{' + input.name + '}', encodeURIComponent(input.value));
        else if (input.value !== '') query.append(input.name, input.value);
      });
      var method = form.getAttribute('data-method') || 'GET';
      /** @type {Record<string, string>} */
      var headers = { Accept: 'application/json' };
      if (keyInput.value) headers.Authorization = 'Bearer ' + keyInput.value.trim();
      /** @type {RequestInit} */
      var init = { method: method, headers: headers, credentials: 'omit' };
      var body = /** @type {HTMLTextAreaElement | null} */ (
        form.querySelector('textarea[name="body"]')
      );
      if (body) {
        headers['Content-Type'] = 'application/json';
        init.body = body.value;
      }
      var qs = query.toString();
      show(result, 'Sending ' + method + ' ' + target + (qs ? '?' + qs : '') + ' …', '');
      fetch(target + (qs ? '?' + qs : ''), init)
        .then(function (res) {
          return res.text().then(function (text) {
            var shown = text;
            try {
              shown = JSON.stringify(JSON.parse(text), null, 2);
            } catch {
              /* not JSON: shown as it came */
            }
            show(result, res.status + ' ' + res.statusText, shown);
          });
        })
        .catch(function (err) {
          show(result, 'The request failed', String(err));
        });
    });
  });
})();
