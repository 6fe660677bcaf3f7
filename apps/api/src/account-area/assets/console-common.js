// @ts-check
/*
 * The console's browser scripts (GET /account) only enhance the server-rendered page: they
 * call the /account/v1 JSON API (same origin, JSON bodies) to create and revoke keys, list
 * and revoke connected apps, show and rotate the webhook secret, save the usage alerts and
 * change the password, and manage rank tracking. They write text with textContent only, never
 * HTML. One file per section of the page (console-keys.js, console-rank.js,
 * console-connections.js, console-webhooks.js, console-audits.js, console-alerts.js,
 * console-password.js; console-nav.js and console-usage.js need none of it), loaded after this one: classic deferred scripts,
 * run in page order, sharing only the `SeoConsole` helpers below (each section keeps its own
 * names inside a block). Type-checked by tsconfig.web.json, linted with browser globals.
 */
/* exported SeoConsole */
'use strict';

/**
 * @typedef {{ id: number, label: string, prefix: string, key?: string,
 *   created_at: string, revoked_at: string | null }} ApiKey
 * @typedef {{ id: number | string, client_id: string, client_name: string | null,
 *   scopes: string[] | string, created_at: string, last_used_at: string | null }} Connection
 * @typedef {{ secret: string, created_at: string,
 *   previous_secret_valid_until: string | null }} WebhookSecret
 * @typedef {{ id: string, job_id: string, event: string, status: string, attempts: number,
 *   last_status_code: number | null, last_attempt_at: string | null }} Delivery
 * @typedef {{ id: string, url: string, used_by: string[],
 *   last_used_at: string | null }} WebhookEndpoint
 * @typedef {{ webhook_id: string, event: string, url: string, delivered: boolean,
 *   status_code: number | null, error: string | null, duration_ms: number,
 *   sent_at: string }} WebhookTestResult
 * @typedef {{ job_id: string, status: string, progress: number, created_at: string,
 *   completed_at: string | null, url: string | null,
 *   data?: { domain: string, total_score: number, report_url: string,
 *     pages_crawled: number },
 *   error?: { code: string, message: string } }} SiteAuditJob
 * @typedef {{ project_id: number, domain: string, name: string, match: string,
 *   tracking: boolean, keywords_count: number, created_at: string,
 *   updated_at: string }} RankProject
 * @typedef {{ keyword_id: number, keyword: string, country: string, language: string,
 *   device: string, status: string, current_position: number | null,
 *   previous_position: number | null, position_change: number | null,
 *   last_checked: string | null }} TrackedKeyword
 * @typedef {Error & { status?: number, meta?: Record<string, any> }} ApiFailure
 */

var SeoConsole = {
  /**
   * An element of the page that must be there, with its type checked.
   * @template {HTMLElement} T
   * @param {string} id
   * @param {{ new (): T }} type
   * @returns {T}
   */
  $: function (id, type) {
    var node = document.getElementById(id);
    if (!(node instanceof type)) throw new Error('The page has no #' + id);
    return node;
  },

  /**
   * @param {HTMLElement} node
   * @param {string} text
   * @param {string} [kind]
   */
  say: function (node, text, kind) {
    node.textContent = text;
    node.className = 'status' + (kind ? ' ' + kind : '');
  },

  signInAgain: function () {
    window.location.assign('/account/sign-in?return_to=%2Faccount');
  },

  /**
   * Calls the /account/v1 JSON API; resolves with `data`, rejects with an Error carrying the
   * API's message (and the HTTP status).
   * @param {string} method
   * @param {string} path
   * @param {object} [body]
   * @param {{ keep401?: boolean, withMeta?: boolean }} [options]  `withMeta`: resolve with
   *   `{data, meta}` (paging members are in meta)
   * @returns {Promise<any>}
   */
  api: function (method, path, body, options) {
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
            return SeoConsole.answer(res, json, options);
          });
      },
      function () {
        throw new Error('Could not reach the server. Check your connection and try again.');
      },
    );
  },

  /**
   * The `data` of a successful answer; else an Error with the API's message and the status
   * (a 401 sends the page to the sign-in first, unless `keep401`).
   * @param {Response} res
   * @param {any} json
   * @param {{ keep401?: boolean, withMeta?: boolean }} [options]
   * @returns {any}
   */
  answer: function (res, json, options) {
    if (res.ok && json && json.success === true) {
      return options && options.withMeta ? { data: json.data, meta: json.meta || {} } : json.data;
    }
    if (res.status === 401 && !(options && options.keep401)) {
      SeoConsole.signInAgain();
    }
    var message =
      json && json.error && json.error.message
        ? json.error.message
        : 'Something went wrong (HTTP ' + res.status + '). Please try again.';
    /** @type {ApiFailure} */
    var err = new Error(message);
    err.status = res.status;
    err.meta = json && json.meta ? json.meta : {};
    throw err;
  },

  /** @param {string | null | undefined} ts */
  when: function (ts) {
    return ts ? ts + ' UTC' : '';
  },

  /**
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {string} [className]
   * @param {string} [text]
   * @returns {HTMLElementTagNameMap[K]}
   */
  el: function (tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  },

  /**
   * @param {string} label
   * @param {string | Node} content
   * @param {string} [className]
   */
  cell: function (label, content, className) {
    var td = SeoConsole.el('td', className);
    td.setAttribute('data-label', label);
    if (typeof content === 'string') td.textContent = content;
    else td.appendChild(content);
    return td;
  },

  /**
   * The button a click landed in, when it matches the selector.
   * @param {Event} event
   * @param {string} selector
   * @returns {HTMLButtonElement | null}
   */
  clickedButton: function (event, selector) {
    var target = event.target instanceof Element ? event.target.closest(selector) : null;
    return target instanceof HTMLButtonElement ? target : null;
  },

  /**
   * Copies a field's value: the clipboard API where the page is a secure context, else the
   * field is selected and the browser's copy command tried.
   * @param {HTMLInputElement} field
   * @param {HTMLElement} out
   * @param {string} what  e.g. "key"
   */
  copyValue: function (field, out, what) {
    function fallback() {
      SeoConsole.selectAndCopy(field, out, what);
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () {
        SeoConsole.say(out, 'Copied to the clipboard.', 'ok');
      }, fallback);
    } else {
      fallback();
    }
  },

  /**
   * copyValue without the clipboard API: selects the field and tries the copy command.
   * @param {HTMLInputElement} field
   * @param {HTMLElement} out
   * @param {string} what
   */
  selectAndCopy: function (field, out, what) {
    if (field.type === 'password') field.type = 'text';
    field.focus();
    field.select();
    var ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    SeoConsole.say(
      out,
      ok
        ? 'Copied to the clipboard.'
        : 'The ' + what + ' is selected: press Ctrl+C (or \u2318C) to copy it.',
      ok ? 'ok' : '',
    );
  },

  /**
   * Runs `work` with the form's submit button disabled until it settles.
   * @param {HTMLFormElement} form
   * @param {() => Promise<unknown>} work
   */
  whileSubmitting: function (form, work) {
    var button = form.querySelector('button[type="submit"]');
    if (button instanceof HTMLButtonElement) button.disabled = true;
    work().then(function () {
      if (button instanceof HTMLButtonElement) button.disabled = false;
    });
  },
};
