/**
 * The stylesheet and the script of the account pages, served by the API itself at
 * /account/assets/account.css and /account/assets/account-console.js (the page CSP allows
 * only this origin's files: no inline script or style, no CDN, no outside fonts).
 *
 * The script only enhances the server-rendered console: it calls the /account/v1 JSON API
 * (same origin, JSON bodies) to create and revoke keys, list and revoke connected apps and
 * change the password. It writes text with textContent only, never HTML.
 */

export const ACCOUNT_CSS = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: #1a1f2b; background: #f4f6fa;
}
a { color: #1747b8; }
code, input[readonly] { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.skip { position: absolute; left: -9999px; top: 0; }
.skip:focus { left: 8px; top: 8px; background: #fff; padding: 8px 12px; z-index: 10; }
.visually-hidden {
  position: absolute !important; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
.top {
  display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; padding: 10px 16px;
  background: #16213e; color: #fff;
}
.top .brand { font-weight: 700; margin-right: auto; }
.top .who { overflow-wrap: anywhere; font-size: 0.95rem; }
.top button { background: transparent; color: #fff; border-color: #9fb0d8; }
.top button:hover { background: #23315a; }
main { max-width: 980px; margin: 0 auto; padding: 16px; }
main.narrow { max-width: 440px; }
h1 { font-size: 1.6rem; margin: 8px 0 4px; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin: 0 0 12px; }
h3 { font-size: 1.05rem; margin: 0 0 8px; }
.plan { margin: 0 0 16px; }
.card { background: #fff; border: 1px solid #d9dfea; border-radius: 8px; padding: 16px; margin: 0 0 16px; }
.stack > * + * { margin-top: 12px; }
.field label { display: block; font-weight: 600; margin-bottom: 4px; }
input[type="email"], input[type="password"], input[type="text"] {
  width: 100%; font: inherit; padding: 10px 12px; border: 1px solid #8793a8; border-radius: 6px; background: #fff; color: inherit;
}
button {
  font: inherit; padding: 9px 16px; border-radius: 6px; border: 1px solid #8793a8; background: #fff; color: #1a1f2b;
  cursor: pointer; min-height: 44px;
}
button:hover { background: #eef1f7; }
button[disabled] { opacity: 0.6; cursor: progress; }
button.primary { background: #1747b8; border-color: #1747b8; color: #fff; }
button.primary:hover { background: #0f379a; }
button.danger { color: #a4161a; border-color: #c9787a; }
button.danger:hover { background: #fdeced; }
:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
.hint { color: #4a5468; font-size: 0.9rem; margin: 4px 0 0; }
.muted { color: #5b6477; }
.alert { border-radius: 6px; padding: 10px 12px; margin: 0 0 12px; border: 1px solid; }
.alert-error { background: #fdeced; border-color: #e3a3a5; color: #7d1014; }
.alert-info { background: #eaf1fe; border-color: #a9c1ef; }
.alert-warn { background: #fff6dd; border-color: #e6c36a; color: #5a4300; }
.status:empty { display: none; }
.status { margin: 0 0 12px; font-weight: 600; }
.status.error { color: #a4161a; }
.status.ok { color: #1f6b2d; }
progress { width: 100%; height: 18px; accent-color: #1747b8; }
table { width: 100%; border-collapse: collapse; margin: 12px 0; }
caption { text-align: left; font-weight: 600; padding-bottom: 6px; }
th, td { text-align: left; padding: 8px 6px; border-bottom: 1px solid #e3e7ef; vertical-align: top; }
td { overflow-wrap: anywhere; }
td code, td.key-action, .quotas td { white-space: nowrap; }
td.key-action { width: 1%; text-align: right; }
button { white-space: nowrap; }
.quotas td, .quotas th[scope="col"]:not(:first-child) { text-align: right; }
tr.revoked td { color: #6b7385; }
.new-key { border: 2px solid #e6c36a; border-radius: 8px; padding: 12px; margin-top: 12px; background: #fffdf5; }
.new-key:focus { outline: none; }
.copy-row { display: flex; gap: 8px; }
.copy-row input { flex: 1 1 auto; min-width: 0; }
.connections { list-style: none; padding: 0; margin: 0; }
.connections li { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; justify-content: space-between;
  padding: 10px 0; border-bottom: 1px solid #e3e7ef; }
.connections .meta { display: block; color: #5b6477; font-size: 0.9rem; }
form.inline { display: inline; margin: 0; }
@media (max-width: 640px) {
  main { padding: 12px; }
  .card { padding: 12px; }
  table.responsive thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.responsive, table.responsive tbody, table.responsive tr, table.responsive td { display: block; width: 100%; }
  table.responsive tr { border: 1px solid #e3e7ef; border-radius: 6px; padding: 6px 10px; margin-bottom: 10px; }
  table.responsive td { border: 0; padding: 4px 0; display: flex; gap: 12px; justify-content: space-between; }
  table.responsive td::before { content: attr(data-label); font-weight: 600; color: #4a5468; flex: 0 0 auto; }
  table.responsive td.key-action::before { content: ""; }
  table.responsive caption { display: block; }
  table.responsive td code { white-space: normal; overflow-wrap: anywhere; }
  table.responsive td > * { text-align: right; }
  .copy-row { flex-direction: column; }
}
`;

export const ACCOUNT_CONSOLE_JS = `'use strict';
(function () {
  function $(id) { return document.getElementById(id); }

  function say(el, text, kind) {
    if (!el) return;
    el.textContent = text;
    el.className = 'status' + (kind ? ' ' + kind : '');
  }

  function signInAgain() {
    window.location.assign('/account/sign-in?return_to=%2Faccount');
  }

  /** Calls the /account/v1 JSON API; resolves with data, rejects with an Error carrying the API's message. */
  function api(method, path, body, options) {
    var init = { method: method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch('/account/v1' + path, init).then(
      function (res) {
        return res.json().catch(function () { return null; }).then(function (json) {
          if (res.ok && json && json.success === true) return json.data;
          if (res.status === 401 && !(options && options.keep401)) {
            signInAgain();
          }
          var message = json && json.error && json.error.message
            ? json.error.message
            : 'Something went wrong (HTTP ' + res.status + '). Please try again.';
          var err = new Error(message);
          err.status = res.status;
          throw err;
        });
      },
      function () {
        throw new Error('Could not reach the server. Check your connection and try again.');
      }
    );
  }

  function when(ts) { return ts ? ts + ' UTC' : ''; }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // ---- API keys ---------------------------------------------------------------------
  var keysBody = $('keys-body');
  var keysStatus = $('keys-status');
  var newKey = $('new-key');
  var newKeyValue = $('new-key-value');
  var shownKeyId = null;

  function revokeButton(id, label) {
    var b = el('button', 'danger', 'Revoke');
    b.type = 'button';
    b.setAttribute('data-revoke-key', String(id));
    b.setAttribute('data-label', label);
    b.appendChild(el('span', 'visually-hidden', ' key ' + label));
    return b;
  }

  function cell(label, content, className) {
    var td = el('td', className);
    td.setAttribute('data-label', label);
    if (typeof content === 'string') td.textContent = content; else td.appendChild(content);
    return td;
  }

  function keyRow(k) {
    var tr = document.createElement('tr');
    tr.setAttribute('data-key-id', String(k.id));
    tr.appendChild(cell('Label', k.label, 'key-label'));
    tr.appendChild(cell('Prefix', el('code', '', k.prefix + '\\u2026')));
    tr.appendChild(cell('Created', when(k.created_at)));
    tr.appendChild(cell('Last used', el('span', 'muted', 'never')));
    tr.appendChild(cell('Action', revokeButton(k.id, k.label), 'key-action'));
    return tr;
  }

  function hideNewKey() {
    if (!newKey) return;
    newKey.hidden = true;
    newKeyValue.value = '';
    shownKeyId = null;
    say($('copy-status'), '');
  }

  var createForm = $('create-key-form');
  if (createForm) {
    createForm.addEventListener('submit', function (event) {
      event.preventDefault();
      var input = $('key-label');
      var button = createForm.querySelector('button[type="submit"]');
      var label = input.value.trim();
      if (label.length < 1 || label.length > 100) {
        say(keysStatus, 'Enter a label of 1 to 100 characters for the key.', 'error');
        input.setAttribute('aria-invalid', 'true');
        input.focus();
        return;
      }
      input.removeAttribute('aria-invalid');
      button.disabled = true;
      say(keysStatus, 'Creating the key\\u2026');
      api('POST', '/api-keys', { label: label }).then(
        function (key) {
          input.value = '';
          keysBody.insertBefore(keyRow(key), keysBody.firstChild);
          $('keys-empty').hidden = true;
          shownKeyId = String(key.id);
          newKeyValue.value = key.key;
          $('new-key-label').textContent = '(' + key.label + ')';
          say($('copy-status'), '');
          newKey.hidden = false;
          say(keysStatus, 'Key \\u201c' + key.label + '\\u201d created. Copy it now: it will not be shown again.', 'ok');
          newKeyValue.focus();
          newKeyValue.select();
        },
        function (err) {
          say(keysStatus, err.message, 'error');
          input.focus();
        }
      ).then(function () { button.disabled = false; });
    });

    $('copy-key').addEventListener('click', function () {
      var out = $('copy-status');
      var value = newKeyValue.value;
      function fallback() {
        newKeyValue.focus();
        newKeyValue.select();
        var ok = false;
        try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
        say(out, ok ? 'Copied to the clipboard.' : 'The key is selected: press Ctrl+C (or \\u2318C) to copy it.', ok ? 'ok' : '');
      }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(value).then(function () { say(out, 'Copied to the clipboard.', 'ok'); }, fallback);
      } else {
        fallback();
      }
    });

    $('new-key-done').addEventListener('click', function () {
      hideNewKey();
      $('key-label').focus();
    });
  }

  if (keysBody) {
    keysBody.addEventListener('click', function (event) {
      var button = event.target.closest('button[data-revoke-key]');
      if (!button) return;
      var id = button.getAttribute('data-revoke-key');
      var label = button.getAttribute('data-label');
      if (!window.confirm('Revoke the key \\u201c' + label + '\\u201d? Programs using it stop working at once. This cannot be undone.')) return;
      button.disabled = true;
      api('DELETE', '/api-keys/' + encodeURIComponent(id)).then(
        function (key) {
          var row = button.closest('tr');
          row.classList.add('revoked');
          var actionCell = button.parentNode;
          actionCell.textContent = '';
          actionCell.appendChild(el('span', 'muted', 'Revoked ' + when(key.revoked_at)));
          if (shownKeyId === String(id)) hideNewKey();
          say(keysStatus, 'Key \\u201c' + label + '\\u201d revoked.', 'ok');
          keysStatus.focus();
        },
        function (err) {
          button.disabled = false;
          say(keysStatus, err.message, 'error');
        }
      );
    });
  }

  // ---- Connected apps ---------------------------------------------------------------
  var connectionsList = $('connections-list');
  var connectionsEmpty = $('connections-empty');
  var connectionsStatus = $('connections-status');

  function connectionItem(c) {
    var li = el('li');
    li.setAttribute('data-connection-id', String(c.id));
    var text = el('div');
    text.appendChild(el('strong', '', c.client_name || c.client_id));
    var scopes = Array.isArray(c.scopes) ? c.scopes.join(', ') : String(c.scopes || '');
    text.appendChild(el('span', 'meta', 'Connected ' + when(c.created_at) + (scopes ? ' \\u00b7 access: ' + scopes : '')));
    text.appendChild(el('span', 'meta', c.last_used_at ? 'Last used ' + when(c.last_used_at) : 'Not used yet'));
    li.appendChild(text);
    var b = el('button', 'danger', 'Revoke');
    b.type = 'button';
    b.setAttribute('data-revoke-connection', String(c.id));
    b.setAttribute('data-label', c.client_name || c.client_id || '');
    b.appendChild(el('span', 'visually-hidden', ' ' + (c.client_name || c.client_id || 'app')));
    li.appendChild(b);
    return li;
  }

  function showConnectionsEmpty() {
    var none = !connectionsList.firstChild;
    connectionsEmpty.hidden = !none;
    if (none) connectionsEmpty.textContent = 'No connected apps.';
  }

  if (connectionsList) {
    api('GET', '/connections').then(
      function (list) {
        connectionsList.textContent = '';
        (list || []).forEach(function (c) { connectionsList.appendChild(connectionItem(c)); });
        showConnectionsEmpty();
      },
      function (err) {
        connectionsEmpty.textContent = 'Connected apps could not be loaded: ' + err.message;
      }
    );
    connectionsList.addEventListener('click', function (event) {
      var button = event.target.closest('button[data-revoke-connection]');
      if (!button) return;
      var id = button.getAttribute('data-revoke-connection');
      var label = button.getAttribute('data-label');
      if (!window.confirm('Disconnect \\u201c' + label + '\\u201d? It loses access at once.')) return;
      button.disabled = true;
      api('DELETE', '/connections/' + encodeURIComponent(id)).then(
        function () {
          var li = button.closest('li');
          li.parentNode.removeChild(li);
          showConnectionsEmpty();
          say(connectionsStatus, '\\u201c' + label + '\\u201d disconnected.', 'ok');
        },
        function (err) {
          button.disabled = false;
          say(connectionsStatus, err.message, 'error');
        }
      );
    });
  }

  // ---- Webhooks ---------------------------------------------------------------------
  var webhookSecret = $('webhook-secret');
  var webhooksStatus = $('webhooks-status');
  var deliveriesBody = $('deliveries-body');
  var deliveriesEmpty = $('deliveries-empty');

  function showSecret(s) {
    webhookSecret.value = s.secret;
    $('webhook-secret-meta').textContent = 'Created ' + when(s.created_at) +
      (s.previous_secret_valid_until ? ' \u00b7 the previous secret also signs until ' + when(s.previous_secret_valid_until) : '');
  }

  function deliveryRow(d) {
    var tr = document.createElement('tr');
    tr.setAttribute('data-delivery-id', d.id);
    tr.appendChild(cell('Job', el('code', '', d.job_id)));
    tr.appendChild(cell('Event', d.event));
    tr.appendChild(cell('Status', d.status, 'delivery-status'));
    tr.appendChild(cell('Attempts', String(d.attempts)));
    tr.appendChild(cell('Last code', d.last_status_code === null ? '\u2014' : String(d.last_status_code)));
    tr.appendChild(cell('Last attempt', d.last_attempt_at ? when(d.last_attempt_at) : 'not yet'));
    return tr;
  }

  if (webhookSecret) {
    api('GET', '/webhook-secret').then(showSecret, function (err) {
      say(webhooksStatus, 'The signing secret could not be loaded: ' + err.message, 'error');
    });
    api('GET', '/webhook-deliveries').then(
      function (list) {
        deliveriesBody.textContent = '';
        (list || []).forEach(function (d) { deliveriesBody.appendChild(deliveryRow(d)); });
        deliveriesEmpty.hidden = !!deliveriesBody.firstChild;
        deliveriesEmpty.textContent = 'No deliveries yet.';
      },
      function (err) {
        deliveriesEmpty.textContent = 'Deliveries could not be loaded: ' + err.message;
      }
    );
    $('reveal-webhook-secret').addEventListener('click', function () {
      var hidden = webhookSecret.type === 'password';
      webhookSecret.type = hidden ? 'text' : 'password';
      this.textContent = hidden ? 'Hide' : 'Reveal';
      this.setAttribute('aria-pressed', hidden ? 'true' : 'false');
    });
    $('copy-webhook-secret').addEventListener('click', function () {
      var value = webhookSecret.value;
      function fallback() {
        webhookSecret.type = 'text';
        webhookSecret.focus();
        webhookSecret.select();
        var ok = false;
        try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
        say(webhooksStatus, ok ? 'Copied to the clipboard.' : 'The secret is selected: press Ctrl+C (or \u2318C) to copy it.', ok ? 'ok' : '');
      }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(value).then(function () { say(webhooksStatus, 'Copied to the clipboard.', 'ok'); }, fallback);
      } else {
        fallback();
      }
    });
    $('rotate-webhook-secret').addEventListener('click', function () {
      if (!window.confirm('Rotate the signing secret? The old one keeps signing for 24 hours.')) return;
      var button = this;
      button.disabled = true;
      api('POST', '/webhook-secret/rotate').then(
        function (s) {
          showSecret(s);
          say(webhooksStatus, 'New secret created. The old one also signs until ' + when(s.previous_secret_valid_until) + '.', 'ok');
        },
        function (err) { say(webhooksStatus, err.message, 'error'); }
      ).then(function () { button.disabled = false; });
    });
  }

  // ---- Password ---------------------------------------------------------------------
  var passwordForm = $('password-form');
  if (passwordForm) {
    passwordForm.addEventListener('submit', function (event) {
      event.preventDefault();
      var out = $('password-status');
      var current = $('current-password');
      var next = $('new-password');
      var again = $('confirm-password');
      if (!current.value) { say(out, 'Enter your current password.', 'error'); current.focus(); return; }
      if (next.value.length < 12 || next.value.length > 256) {
        say(out, 'The new password must have 12 to 256 characters.', 'error');
        next.focus();
        return;
      }
      if (next.value !== again.value) {
        say(out, 'The two new passwords differ.', 'error');
        again.focus();
        return;
      }
      var button = passwordForm.querySelector('button[type="submit"]');
      button.disabled = true;
      api('POST', '/password', { current_password: current.value, new_password: next.value }, { keep401: true }).then(
        function () {
          passwordForm.reset();
          say(out, 'Password changed. Your other sessions were signed out.', 'ok');
        },
        function (err) {
          var message = err.message;
          if (err.status === 422 && /current_password/.test(message)) {
            message = 'Your current password is not correct.';
          } else if (err.status === 422 && /new_password/.test(message)) {
            message = 'The new password must have 12 to 256 characters.';
          }
          say(out, message, 'error');
          current.focus();
        }
      ).then(function () { button.disabled = false; });
    });
  }
})();
`;
