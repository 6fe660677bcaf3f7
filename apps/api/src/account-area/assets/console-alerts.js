// @ts-check
/*
 * The console's "Usage alerts" section: saves the alert webhook URL and thresholds (the form
 * is there only on plans with alerts). Helpers and types: console-common.js.
 */
/* global SeoConsole */
'use strict';
{
  const C = SeoConsole;

  /**
   * The thresholds typed in the field (1 to 3 different whole percentages), or null.
   * @param {string} value
   * @returns {number[] | null}
   */
  function parseThresholds(value) {
    const parts = value.split(/[\s,;%]+/).filter(Boolean);
    const thresholds = parts.map(Number);
    const valid =
      parts.length >= 1 &&
      parts.length <= 3 &&
      thresholds.every(function (t) {
        return Number.isInteger(t) && t >= 1 && t <= 100;
      }) &&
      new Set(thresholds).size === thresholds.length;
    return valid ? thresholds : null;
  }

  /** @param {HTMLFormElement} saving */
  function saveAlerts(saving) {
    const out = C.$('alerts-status', HTMLElement);
    const url = C.$('alerts-url', HTMLInputElement);
    const field = C.$('alerts-thresholds', HTMLInputElement);
    const thresholds = parseThresholds(field.value);
    if (!thresholds) {
      C.say(out, 'Enter 1 to 3 different whole percentages from 1 to 100, e.g. 80, 100.', 'error');
      field.setAttribute('aria-invalid', 'true');
      field.focus();
      return;
    }
    field.removeAttribute('aria-invalid');
    const webhookUrl = url.value.trim();
    C.whileSubmitting(saving, function () {
      return C.api('PUT', '/alerts', {
        webhook_url: webhookUrl || null,
        thresholds: thresholds,
      }).then(
        /** @param {{ webhook_url: string | null, thresholds: number[] }} saved */
        function (saved) {
          field.value = saved.thresholds.join(', ');
          url.value = saved.webhook_url || '';
          C.say(
            out,
            saved.webhook_url
              ? 'Saved. Alerts at ' + saved.thresholds.join(' %, ') + ' % of your allowance.'
              : 'Saved. Alerts are off.',
            'ok',
          );
        },
        /** @param {ApiFailure} err */
        function (err) {
          C.say(out, err.message, 'error');
          url.focus();
        },
      );
    });
  }

  const alertsForm = document.getElementById('alerts-form');
  if (alertsForm instanceof HTMLFormElement) {
    const saving = alertsForm;
    saving.addEventListener('submit', function (event) {
      event.preventDefault();
      saveAlerts(saving);
    });
  }
}
