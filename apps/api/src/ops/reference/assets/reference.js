/* The API reference page (/docs): sample tabs, copy buttons, and the Try it forms, which call
 * this origin with the key typed on the page (kept in sessionStorage for the tab only). */
(function () {
  'use strict';
  var keyInput = document.getElementById('api-key');
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

  // On a phone the operations list starts closed, so the page opens on the reference.
  if (window.matchMedia('(max-width: 900px)').matches) {
    var toc = document.querySelector('.toc details');
    if (toc) toc.open = false;
  }

  function select(tab) {
    var list = tab.parentElement;
    list.querySelectorAll('[role="tab"]').forEach(function (t) {
      var on = t === tab;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
      document.getElementById(t.getAttribute('aria-controls')).hidden = !on;
    });
  }
  document.querySelectorAll('[role="tablist"]').forEach(function (list) {
    var tabs = Array.prototype.slice.call(list.querySelectorAll('[role="tab"]'));
    tabs.forEach(function (tab, i) {
      tab.addEventListener('click', function () {
        select(tab);
      });
      tab.addEventListener('keydown', function (ev) {
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
      var code = button.parentElement.querySelector('code').textContent;
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
      var query = new URLSearchParams();
      form.querySelectorAll('input[data-in]').forEach(function (input) {
        if (input.getAttribute('data-in') === 'path')
          path = path.replace('{' + input.name + '}', encodeURIComponent(input.value));
        else if (input.value !== '') query.append(input.name, input.value);
      });
      var method = form.getAttribute('data-method');
      var headers = { Accept: 'application/json' };
      if (keyInput.value) headers.Authorization = 'Bearer ' + keyInput.value.trim();
      var init = { method: method, headers: headers, credentials: 'omit' };
      var body = form.querySelector('textarea[name="body"]');
      if (body) {
        headers['Content-Type'] = 'application/json';
        init.body = body.value;
      }
      var qs = query.toString();
      show(out, 'Sending ' + method + ' ' + path + (qs ? '?' + qs : '') + ' …', '');
      fetch(path + (qs ? '?' + qs : ''), init)
        .then(function (res) {
          return res.text().then(function (text) {
            var shown = text;
            try {
              shown = JSON.stringify(JSON.parse(text), null, 2);
            } catch {
              /* not JSON: shown as it came */
            }
            show(out, res.status + ' ' + res.statusText, shown);
          });
        })
        .catch(function (err) {
          show(out, 'The request failed', String(err));
        });
    });
  });
})();
