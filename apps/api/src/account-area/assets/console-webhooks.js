// @ts-check
/*
 * The console's "Webhooks" section: the signing secret (reveal, copy, rotate) and the recent
 * deliveries. Helpers and types: console-common.js.
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

  loadSecretAndDeliveries();
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
