// @ts-check
/*
 * The console's "Webhooks" section: the signing secret (reveal, copy, rotate), the account's
 * webhook URLs with a "Send a test delivery" button each (POST /account/v1/webhooks/{id}/test:
 * the answer's status code, time or error is shown under the URL) and the recent deliveries.
 * Helpers and types: console-common.js.
 */
/* global SeoConsole */
'use strict';
{
  const C = SeoConsole;
  const webhookSecret = C.$('webhook-secret', HTMLInputElement);
  const webhooksStatus = C.$('webhooks-status', HTMLElement);
  const deliveriesBody = C.$('deliveries-body', HTMLTableSectionElement);
  const deliveriesEmpty = C.$('deliveries-empty', HTMLElement);

  /** @param {WebhookSecret} s */
  function showSecret(s) {
    webhookSecret.value = s.secret;
    C.$('webhook-secret-meta', HTMLElement).textContent =
      'Created ' +
      C.when(s.created_at) +
      (s.previous_secret_valid_until
        ? ' · the previous secret also signs until ' + C.when(s.previous_secret_valid_until)
        : '');
  }

  /** @param {Delivery} d */
  function deliveryRow(d) {
    const tr = C.el('tr');
    tr.setAttribute('data-delivery-id', d.id);
    tr.appendChild(C.cell('Job', C.el('code', '', d.job_id)));
    tr.appendChild(C.cell('Event', d.event));
    tr.appendChild(C.cell('Status', d.status, 'delivery-status'));
    tr.appendChild(C.cell('Attempts', String(d.attempts)));
    tr.appendChild(
      C.cell('Last code', d.last_status_code === null ? '—' : String(d.last_status_code)),
    );
    tr.appendChild(
      C.cell('Last attempt', d.last_attempt_at ? C.when(d.last_attempt_at) : 'not yet'),
    );
    return tr;
  }

  function loadSecretAndDeliveries() {
    C.api('GET', '/webhook-secret').then(
      showSecret,
      /** @param {ApiFailure} err */
      function (err) {
        C.say(webhooksStatus, 'The signing secret could not be loaded: ' + err.message, 'error');
      },
    );
    C.api('GET', '/webhook-deliveries').then(
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
  }

  /** @param {HTMLButtonElement} rotate */
  function rotateSecret(rotate) {
    if (!window.confirm('Rotate the signing secret? The old one keeps signing for 24 hours.'))
      return;
    rotate.disabled = true;
    C.api('POST', '/webhook-secret/rotate')
      .then(
        /** @param {WebhookSecret} s */
        function (s) {
          showSecret(s);
          C.say(
            webhooksStatus,
            'New secret created. The old one also signs until ' +
              C.when(s.previous_secret_valid_until) +
              '.',
            'ok',
          );
        },
        /** @param {ApiFailure} err */
        function (err) {
          C.say(webhooksStatus, err.message, 'error');
        },
      )
      .then(function () {
        rotate.disabled = false;
      });
  }

  const urlsList = C.$('webhook-urls', HTMLUListElement);
  const urlsEmpty = C.$('webhook-urls-empty', HTMLElement);
  const USES = { usage_alerts: 'usage alerts', site_audit: 'site audits' };

  /** @param {WebhookEndpoint} w */
  function webhookItem(w) {
    const li = C.el('li');
    li.setAttribute('data-webhook-id', w.id);
    const text = C.el('span', 'webhook-url');
    text.appendChild(C.el('code', '', w.url));
    const uses = w.used_by
      .map(function (u) {
        return USES[/** @type {keyof typeof USES} */ (u)] || u;
      })
      .join(', ');
    text.appendChild(
      C.el(
        'span',
        'meta',
        'Used by ' + uses + (w.last_used_at ? ' · last audit ' + C.when(w.last_used_at) : ''),
      ),
    );
    li.appendChild(text);
    const button = C.el('button', '', 'Send a test delivery');
    button.type = 'button';
    button.setAttribute('data-test-webhook', w.id);
    button.appendChild(C.el('span', 'visually-hidden', ' to ' + w.url));
    li.appendChild(button);
    const result = C.el('p', 'webhook-test-result');
    result.setAttribute('role', 'status');
    result.setAttribute('aria-live', 'polite');
    li.appendChild(result);
    return li;
  }

  function loadWebhookUrls() {
    C.api('GET', '/webhooks').then(
      /** @param {WebhookEndpoint[] | null} list */
      function (list) {
        urlsList.textContent = '';
        (list || []).forEach(function (w) {
          urlsList.appendChild(webhookItem(w));
        });
        urlsEmpty.hidden = !!urlsList.firstChild;
        urlsEmpty.textContent =
          'No webhook URL yet: set one for usage alerts above, or pass webhook_url to POST /api/v1/site-audit.';
      },
      /** @param {ApiFailure} err */
      function (err) {
        urlsEmpty.textContent = 'Webhook URLs could not be loaded: ' + err.message;
      },
    );
  }

  /** @param {WebhookTestResult} r */
  function testSummary(r) {
    const took = ' in ' + r.duration_ms + ' ms';
    if (r.status_code !== null) {
      return (
        (r.delivered ? 'Delivered: ' : 'Not accepted: ') +
        'the receiver answered HTTP ' +
        r.status_code +
        took +
        ' (' +
        C.when(r.sent_at) +
        ', webhook-id ' +
        r.webhook_id +
        ').'
      );
    }
    return 'Not delivered: ' + (r.error || 'no answer') + took + ' (' + C.when(r.sent_at) + ').';
  }

  /** @param {HTMLButtonElement} button */
  function sendTest(button) {
    const id = button.getAttribute('data-test-webhook') || '';
    const item = button.closest('li');
    const result = item ? item.querySelector('.webhook-test-result') : null;
    if (!(result instanceof HTMLElement)) return;
    button.disabled = true;
    result.className = 'webhook-test-result';
    result.textContent = 'Sending…';
    C.api('POST', '/webhooks/' + encodeURIComponent(id) + '/test')
      .then(
        /** @param {WebhookTestResult} r */
        function (r) {
          result.className = 'webhook-test-result ' + (r.delivered ? 'ok' : 'error');
          result.textContent = testSummary(r);
          loadSecretAndDeliveries();
        },
        /** @param {ApiFailure} err */
        function (err) {
          result.className = 'webhook-test-result error';
          result.textContent = 'Not sent: ' + err.message;
        },
      )
      .then(function () {
        button.disabled = false;
      });
  }

  urlsList.addEventListener('click', function (event) {
    const button = C.clickedButton(event, 'button[data-test-webhook]');
    if (button) sendTest(button);
  });

  loadSecretAndDeliveries();
  loadWebhookUrls();
  const reveal = C.$('reveal-webhook-secret', HTMLButtonElement);
  reveal.addEventListener('click', function () {
    const hidden = webhookSecret.type === 'password';
    webhookSecret.type = hidden ? 'text' : 'password';
    reveal.textContent = hidden ? 'Hide' : 'Reveal';
    reveal.setAttribute('aria-pressed', hidden ? 'true' : 'false');
  });
  C.$('copy-webhook-secret', HTMLButtonElement).addEventListener('click', function () {
    C.copyValue(webhookSecret, webhooksStatus, 'secret');
  });
  const rotate = C.$('rotate-webhook-secret', HTMLButtonElement);
  rotate.addEventListener('click', function () {
    rotateSecret(rotate);
  });
}
