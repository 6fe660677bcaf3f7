// @ts-check
/*
 * The console's browser script (GET /account). It only enhances the server-rendered page: it
 * calls the /account/v1 JSON API (same origin, JSON bodies) to create and revoke keys, list
 * and revoke connected apps, show and rotate the webhook secret and change the password. It
 * writes text with textContent only, never HTML. Type-checked by tsconfig.web.json, linted
 * with browser globals.
 */
'use strict';
(function () {
  /**
   * @typedef {{ id: number, label: string, prefix: string, key?: string,
   *   created_at: string, revoked_at: string | null }} ApiKey
   * @typedef {{ id: number | string, client_id: string, client_name: string | null,
   *   scopes: string[] | string, created_at: string, last_used_at: string | null }} Connection
   * @typedef {{ secret: string, created_at: string,
   *   previous_secret_valid_until: string | null }} WebhookSecret
   * @typedef {{ id: string, job_id: string, event: string, status: string, attempts: number,
   *   last_status_code: number | null, last_attempt_at: string | null }} Delivery
   * @typedef {Error & { status?: number }} ApiFailure
   */

  /**
   * An element of the page that must be there, with its type checked.
   * @template {HTMLElement} T
   * @param {string} id
   * @param {{ new (): T }} type
   * @returns {T}
   */
  function $(id, type) {
    var node = document.getElementById(id);
    if (!(node instanceof type)) throw new Error('The page has no #' + id);
    return node;
  }

  /**
   * @param {HTMLElement} node
   * @param {string} text
   * @param {string} [kind]
   */
  function say(node, text, kind) {
    node.textContent = text;
    node.className = 'status' + (kind ? ' ' + kind : '');
  }

  function signInAgain() {
    window.location.assign('/account/sign-in?return_to=%2Faccount');
  }

  /**
   * Calls the /account/v1 JSON API; resolves with `data`, rejects with an Error carrying the
   * API's message (and the HTTP status).
   * @param {string} method
   * @param {string} path
   * @param {object} [body]
   * @param {{ keep401?: boolean }} [options]
   * @returns {Promise<any>}
   */
  function api(method, path, body, options) {
    /** @type {Record<string, string>} */
    var headers = { Accept: 'application/json' };
    /** @type {RequestInit} */
    var init = { method: method, credentials: 'same-origin', headers: headers };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch('/account/v1' + path, init).then(
      function (res) {
        return res
          .json()
          .catch(function () {
            return null;
          })
          .then(function (json) {
            if (res.ok && json && json.success === true) return json.data;
            if (res.status === 401 && !(options && options.keep401)) {
              signInAgain();
            }
            var message =
              json && json.error && json.error.message
                ? json.error.message
                : 'Something went wrong (HTTP ' + res.status + '). Please try again.';
            /** @type {ApiFailure} */
            var err = new Error(message);
            err.status = res.status;
            throw err;
          });
      },
      function () {
        throw new Error('Could not reach the server. Check your connection and try again.');
      },
    );
  }

  /** @param {string | null | undefined} ts */
  function when(ts) {
    return ts ? ts + ' UTC' : '';
  }

  /**
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {string} [className]
   * @param {string} [text]
   * @returns {HTMLElementTagNameMap[K]}
   */
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /**
   * @param {string} label
   * @param {string | Node} content
   * @param {string} [className]
   */
  function cell(label, content, className) {
    var td = el('td', className);
    td.setAttribute('data-label', label);
    if (typeof content === 'string') td.textContent = content;
    else td.appendChild(content);
    return td;
  }

  /**
   * The button a click landed in, when it matches the selector.
   * @param {Event} event
   * @param {string} selector
   * @returns {HTMLButtonElement | null}
   */
  function clickedButton(event, selector) {
    var target = event.target instanceof Element ? event.target.closest(selector) : null;
    return target instanceof HTMLButtonElement ? target : null;
  }

  /**
   * Copies a field's value: the clipboard API where the page is a secure context, else the
   * field is selected and the browser's copy command tried.
   * @param {HTMLInputElement} field
   * @param {HTMLElement} out
   * @param {string} what  e.g. "key"
   */
  function copyValue(field, out, what) {
    function fallback() {
      if (field.type === 'password') field.type = 'text';
      field.focus();
      field.select();
      var ok = false;
      try {
        ok = document.execCommand('copy');
      } catch {
        ok = false;
      }
      say(
        out,
        ok
          ? 'Copied to the clipboard.'
          : 'The ' + what + ' is selected: press Ctrl+C (or \u2318C) to copy it.',
        ok ? 'ok' : '',
      );
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () {
        say(out, 'Copied to the clipboard.', 'ok');
      }, fallback);
    } else {
      fallback();
    }
  }

  // ---- API keys ---------------------------------------------------------------------
  var keysBody = $('keys-body', HTMLTableSectionElement);
  var keysStatus = $('keys-status', HTMLElement);
  /** @type {string | null} */
  var shownKeyId = null;
  /** Hides the new key's panel (there is none on a plan without API access). */
  var hideNewKey = function () {};

  /**
   * @param {number} id
   * @param {string} label
   */
  function revokeButton(id, label) {
    var b = el('button', 'danger', 'Revoke');
    b.type = 'button';
    b.setAttribute('data-revoke-key', String(id));
    b.setAttribute('data-label', label);
    b.appendChild(el('span', 'visually-hidden', ' key ' + label));
    return b;
  }

  /** @param {ApiKey} k */
  function keyRow(k) {
    var tr = el('tr');
    tr.setAttribute('data-key-id', String(k.id));
    tr.appendChild(cell('Label', k.label, 'key-label'));
    tr.appendChild(cell('Prefix', el('code', '', k.prefix + '\u2026')));
    tr.appendChild(cell('Created', when(k.created_at)));
    tr.appendChild(cell('Last used', el('span', 'muted', 'never')));
    tr.appendChild(cell('Calls this month', '0', 'key-calls'));
    tr.appendChild(cell('Action', revokeButton(k.id, k.label), 'key-action'));
    return tr;
  }

  var createForm = document.getElementById('create-key-form');
  if (createForm instanceof HTMLFormElement) {
    var form = createForm;
    var input = $('key-label', HTMLInputElement);
    var newKey = $('new-key', HTMLElement);
    var newKeyValue = $('new-key-value', HTMLInputElement);
    var copyStatus = $('copy-status', HTMLElement);
    hideNewKey = function () {
      newKey.hidden = true;
      newKeyValue.value = '';
      shownKeyId = null;
      say(copyStatus, '');
    };
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var button = form.querySelector('button[type="submit"]');
      var label = input.value.trim();
      if (label.length < 1 || label.length > 100) {
        say(keysStatus, 'Enter a label of 1 to 100 characters for the key.', 'error');
        input.setAttribute('aria-invalid', 'true');
        input.focus();
        return;
      }
      input.removeAttribute('aria-invalid');
      if (button instanceof HTMLButtonElement) button.disabled = true;
      say(keysStatus, 'Creating the key\u2026');
      api('POST', '/api-keys', { label: label })
        .then(
          /** @param {ApiKey} key */
          function (key) {
            input.value = '';
            keysBody.insertBefore(keyRow(key), keysBody.firstChild);
            $('keys-empty', HTMLElement).hidden = true;
            shownKeyId = String(key.id);
            newKeyValue.value = key.key || '';
            $('new-key-label', HTMLElement).textContent = '(' + key.label + ')';
            say(copyStatus, '');
            newKey.hidden = false;
            say(
              keysStatus,
              'Key \u201c' + key.label + '\u201d created. Copy it now: it will not be shown again.',
              'ok',
            );
            newKeyValue.focus();
            newKeyValue.select();
          },
          /** @param {ApiFailure} err */
          function (err) {
            say(keysStatus, err.message, 'error');
            input.focus();
          },
        )
        .then(function () {
          if (button instanceof HTMLButtonElement) button.disabled = false;
        });
    });

    $('copy-key', HTMLButtonElement).addEventListener('click', function () {
      copyValue(newKeyValue, copyStatus, 'key');
    });

    $('new-key-done', HTMLButtonElement).addEventListener('click', function () {
      hideNewKey();
      input.focus();
    });
  }

  keysBody.addEventListener('click', function (event) {
    var button = clickedButton(event, 'button[data-revoke-key]');
    if (!button) return;
    var revoking = button;
    var id = button.getAttribute('data-revoke-key') || '';
    var label = button.getAttribute('data-label') || '';
    if (
      !window.confirm(
        'Revoke the key \u201c' +
          label +
          '\u201d? Programs using it stop working at once. This cannot be undone.',
      )
    )
      return;
    revoking.disabled = true;
    api('DELETE', '/api-keys/' + encodeURIComponent(id)).then(
      /** @param {ApiKey} key */
      function (key) {
        var row = revoking.closest('tr');
        if (row) row.classList.add('revoked');
        var actionCell = revoking.parentElement;
        if (actionCell) {
          actionCell.textContent = '';
          actionCell.appendChild(el('span', 'muted', 'Revoked ' + when(key.revoked_at)));
        }
        if (shownKeyId === id) hideNewKey();
        say(keysStatus, 'Key \u201c' + label + '\u201d revoked.', 'ok');
        keysStatus.focus();
      },
      /** @param {ApiFailure} err */
      function (err) {
        revoking.disabled = false;
        say(keysStatus, err.message, 'error');
      },
    );
  });

  // ---- Connected apps ---------------------------------------------------------------
  var connectionsList = $('connections-list', HTMLUListElement);
  var connectionsEmpty = $('connections-empty', HTMLElement);
  var connectionsStatus = $('connections-status', HTMLElement);

  /** @param {Connection} c */
  function connectionItem(c) {
    var li = el('li');
    li.setAttribute('data-connection-id', String(c.id));
    var text = el('div');
    text.appendChild(el('strong', '', c.client_name || c.client_id));
    var scopes = Array.isArray(c.scopes) ? c.scopes.join(', ') : String(c.scopes || '');
    text.appendChild(
      el(
        'span',
        'meta',
        'Connected ' + when(c.created_at) + (scopes ? ' \u00b7 access: ' + scopes : ''),
      ),
    );
    text.appendChild(
      el('span', 'meta', c.last_used_at ? 'Last used ' + when(c.last_used_at) : 'Not used yet'),
    );
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

  api('GET', '/connections').then(
    /** @param {Connection[] | null} list */
    function (list) {
      connectionsList.textContent = '';
      (list || []).forEach(function (c) {
        connectionsList.appendChild(connectionItem(c));
      });
      showConnectionsEmpty();
    },
    /** @param {ApiFailure} err */
    function (err) {
      connectionsEmpty.textContent = 'Connected apps could not be loaded: ' + err.message;
    },
  );
  connectionsList.addEventListener('click', function (event) {
    var button = clickedButton(event, 'button[data-revoke-connection]');
    if (!button) return;
    var revoking = button;
    var id = button.getAttribute('data-revoke-connection') || '';
    var label = button.getAttribute('data-label') || '';
    if (!window.confirm('Disconnect \u201c' + label + '\u201d? It loses access at once.')) return;
    revoking.disabled = true;
    api('DELETE', '/connections/' + encodeURIComponent(id)).then(
      function () {
        var li = revoking.closest('li');
        if (li) li.remove();
        showConnectionsEmpty();
        say(connectionsStatus, '\u201c' + label + '\u201d disconnected.', 'ok');
      },
      /** @param {ApiFailure} err */
      function (err) {
        revoking.disabled = false;
        say(connectionsStatus, err.message, 'error');
      },
    );
  });

  // ---- Webhooks ---------------------------------------------------------------------
  var webhookSecret = $('webhook-secret', HTMLInputElement);
  var webhooksStatus = $('webhooks-status', HTMLElement);
  var deliveriesBody = $('deliveries-body', HTMLTableSectionElement);
  var deliveriesEmpty = $('deliveries-empty', HTMLElement);

  /** @param {WebhookSecret} s */
  function showSecret(s) {
    webhookSecret.value = s.secret;
    $('webhook-secret-meta', HTMLElement).textContent =
      'Created ' +
      when(s.created_at) +
      (s.previous_secret_valid_until
        ? ' · the previous secret also signs until ' + when(s.previous_secret_valid_until)
        : '');
  }

  /** @param {Delivery} d */
  function deliveryRow(d) {
    var tr = el('tr');
    tr.setAttribute('data-delivery-id', d.id);
    tr.appendChild(cell('Job', el('code', '', d.job_id)));
    tr.appendChild(cell('Event', d.event));
    tr.appendChild(cell('Status', d.status, 'delivery-status'));
    tr.appendChild(cell('Attempts', String(d.attempts)));
    tr.appendChild(
      cell('Last code', d.last_status_code === null ? '—' : String(d.last_status_code)),
    );
    tr.appendChild(cell('Last attempt', d.last_attempt_at ? when(d.last_attempt_at) : 'not yet'));
    return tr;
  }

  api('GET', '/webhook-secret').then(
    showSecret,
    /** @param {ApiFailure} err */
    function (err) {
      say(webhooksStatus, 'The signing secret could not be loaded: ' + err.message, 'error');
    },
  );
  api('GET', '/webhook-deliveries').then(
    /** @param {Delivery[] | null} list */
    function (list) {
      deliveriesBody.textContent = '';
      (list || []).forEach(function (d) {
        deliveriesBody.appendChild(deliveryRow(d));
      });
      deliveriesEmpty.hidden = !!deliveriesBody.firstChild;
      deliveriesEmpty.textContent = 'No deliveries yet.';
    },
    /** @param {ApiFailure} err */
    function (err) {
      deliveriesEmpty.textContent = 'Deliveries could not be loaded: ' + err.message;
    },
  );
  var reveal = $('reveal-webhook-secret', HTMLButtonElement);
  reveal.addEventListener('click', function () {
    var hidden = webhookSecret.type === 'password';
    webhookSecret.type = hidden ? 'text' : 'password';
    reveal.textContent = hidden ? 'Hide' : 'Reveal';
    reveal.setAttribute('aria-pressed', hidden ? 'true' : 'false');
  });
  $('copy-webhook-secret', HTMLButtonElement).addEventListener('click', function () {
    copyValue(webhookSecret, webhooksStatus, 'secret');
  });
  var rotate = $('rotate-webhook-secret', HTMLButtonElement);
  rotate.addEventListener('click', function () {
    if (!window.confirm('Rotate the signing secret? The old one keeps signing for 24 hours.'))
      return;
    rotate.disabled = true;
    api('POST', '/webhook-secret/rotate')
      .then(
        /** @param {WebhookSecret} s */
        function (s) {
          showSecret(s);
          say(
            webhooksStatus,
            'New secret created. The old one also signs until ' +
              when(s.previous_secret_valid_until) +
              '.',
            'ok',
          );
        },
        /** @param {ApiFailure} err */
        function (err) {
          say(webhooksStatus, err.message, 'error');
        },
      )
      .then(function () {
        rotate.disabled = false;
      });
  });

  // ---- Usage alerts -----------------------------------------------------------------
  var alertsForm = document.getElementById('alerts-form');
  if (alertsForm instanceof HTMLFormElement) {
    var saving = alertsForm;
    saving.addEventListener('submit', function (event) {
      event.preventDefault();
      var out = $('alerts-status', HTMLElement);
      var url = $('alerts-url', HTMLInputElement);
      var field = $('alerts-thresholds', HTMLInputElement);
      var parts = field.value.split(/[\s,;%]+/).filter(Boolean);
      var thresholds = parts.map(Number);
      var valid =
        parts.length >= 1 &&
        parts.length <= 3 &&
        thresholds.every(function (t) {
          return Number.isInteger(t) && t >= 1 && t <= 100;
        }) &&
        new Set(thresholds).size === thresholds.length;
      if (!valid) {
        say(out, 'Enter 1 to 3 different whole percentages from 1 to 100, e.g. 80, 100.', 'error');
        field.setAttribute('aria-invalid', 'true');
        field.focus();
        return;
      }
      field.removeAttribute('aria-invalid');
      var button = saving.querySelector('button[type="submit"]');
      if (button instanceof HTMLButtonElement) button.disabled = true;
      var webhookUrl = url.value.trim();
      api('PUT', '/alerts', { webhook_url: webhookUrl || null, thresholds: thresholds })
        .then(
          /** @param {{ webhook_url: string | null, thresholds: number[] }} saved */
          function (saved) {
            field.value = saved.thresholds.join(', ');
            url.value = saved.webhook_url || '';
            say(
              out,
              saved.webhook_url
                ? 'Saved. Alerts at ' + saved.thresholds.join(' %, ') + ' % of your allowance.'
                : 'Saved. Alerts are off.',
              'ok',
            );
          },
          /** @param {ApiFailure} err */
          function (err) {
            say(out, err.message, 'error');
            url.focus();
          },
        )
        .then(function () {
          if (button instanceof HTMLButtonElement) button.disabled = false;
        });
    });
  }

  // ---- Password ---------------------------------------------------------------------
  var passwordForm = $('password-form', HTMLFormElement);
  passwordForm.addEventListener('submit', function (event) {
    event.preventDefault();
    var out = $('password-status', HTMLElement);
    var current = $('current-password', HTMLInputElement);
    var next = $('new-password', HTMLInputElement);
    var again = $('confirm-password', HTMLInputElement);
    if (!current.value) {
      say(out, 'Enter your current password.', 'error');
      current.focus();
      return;
    }
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
    if (button instanceof HTMLButtonElement) button.disabled = true;
    api(
      'POST',
      '/password',
      { current_password: current.value, new_password: next.value },
      { keep401: true },
    )
      .then(
        function () {
          passwordForm.reset();
          say(out, 'Password changed. Your other sessions were signed out.', 'ok');
        },
        /** @param {ApiFailure} err */
        function (err) {
          var message = err.message;
          if (err.status === 422 && /current_password/.test(message)) {
            message = 'Your current password is not correct.';
          } else if (err.status === 422 && /new_password/.test(message)) {
            message = 'The new password must have 12 to 256 characters.';
          }
          say(out, message, 'error');
          current.focus();
        },
      )
      .then(function () {
        if (button instanceof HTMLButtonElement) button.disabled = false;
      });
  });
})();
