// @ts-check
/*
 * The console's "API keys" section: create a key (shown once, with a copy button) and revoke
 * one. Helpers and types: console-common.js.
 */
/* global SeoConsole */
'use strict';
{
  const C = SeoConsole;
  const keysBody = C.$('keys-body', HTMLTableSectionElement);
  const keysStatus = C.$('keys-status', HTMLElement);
  /** The new key's panel; null on a plan without API access (no create form). */
  const panel = newKeyPanel();

  /**
   * The panel showing a new key once, and the id of the key it shows.
   * @returns {{ shownKeyId: string | null, hide: () => void } | null}
   */
  function newKeyPanel() {
    const createForm = document.getElementById('create-key-form');
    if (!(createForm instanceof HTMLFormElement)) return null;
    const input = C.$('key-label', HTMLInputElement);
    const newKey = C.$('new-key', HTMLElement);
    const newKeyValue = C.$('new-key-value', HTMLInputElement);
    const copyStatus = C.$('copy-status', HTMLElement);
    /** @type {{ shownKeyId: string | null, hide: () => void }} */
    const shown = {
      shownKeyId: null,
      hide: function () {
        newKey.hidden = true;
        newKeyValue.value = '';
        shown.shownKeyId = null;
        C.say(copyStatus, '');
      },
    };
    createForm.addEventListener('submit', function (event) {
      event.preventDefault();
      createKey(createForm, input, shown);
    });
    C.$('copy-key', HTMLButtonElement).addEventListener('click', function () {
      C.copyValue(newKeyValue, copyStatus, 'key');
    });
    C.$('new-key-done', HTMLButtonElement).addEventListener('click', function () {
      shown.hide();
      input.focus();
    });
    return shown;
  }

  /**
   * @param {number} id
   * @param {string} label
   */
  function revokeButton(id, label) {
    const b = C.el('button', 'danger', 'Revoke');
    b.type = 'button';
    b.setAttribute('data-revoke-key', String(id));
    b.setAttribute('data-label', label);
    b.appendChild(C.el('span', 'visually-hidden', ' key ' + label));
    return b;
  }

  /** @param {ApiKey} k */
  function keyRow(k) {
    const tr = C.el('tr');
    tr.setAttribute('data-key-id', String(k.id));
    tr.appendChild(C.cell('Label', k.label, 'key-label'));
    tr.appendChild(C.cell('Prefix', C.el('code', '', k.prefix + '\u2026')));
    tr.appendChild(C.cell('Created', C.when(k.created_at)));
    tr.appendChild(C.cell('Last used', C.el('span', 'muted', 'never')));
    tr.appendChild(C.cell('Calls this month', '0', 'key-calls'));
    tr.appendChild(C.cell('Action', revokeButton(k.id, k.label), 'key-action'));
    return tr;
  }

  /**
   * Validates the label, creates the key and shows it once.
   * @param {HTMLFormElement} form
   * @param {HTMLInputElement} input
   * @param {{ shownKeyId: string | null }} shown
   */
  function createKey(form, input, shown) {
    const label = input.value.trim();
    if (label.length < 1 || label.length > 100) {
      C.say(keysStatus, 'Enter a label of 1 to 100 characters for the key.', 'error');
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    input.removeAttribute('aria-invalid');
    C.whileSubmitting(form, function () {
      C.say(keysStatus, 'Creating the key\u2026');
      return C.api('POST', '/api-keys', { label: label }).then(
        /** @param {ApiKey} key */
        function (key) {
          input.value = '';
          showNewKey(key, shown);
        },
        /** @param {ApiFailure} err */
        function (err) {
          C.say(keysStatus, err.message, 'error');
          input.focus();
        },
      );
    });
  }

  /**
   * Adds the new key's row and shows its value in the panel (the only time it is shown).
   * @param {ApiKey} key
   * @param {{ shownKeyId: string | null }} shown
   */
  function showNewKey(key, shown) {
    const newKeyValue = C.$('new-key-value', HTMLInputElement);
    keysBody.insertBefore(keyRow(key), keysBody.firstChild);
    C.$('keys-empty', HTMLElement).hidden = true;
    shown.shownKeyId = String(key.id);
    newKeyValue.value = key.key || '';
    C.$('new-key-label', HTMLElement).textContent = '(' + key.label + ')';
    C.say(C.$('copy-status', HTMLElement), '');
    C.$('new-key', HTMLElement).hidden = false;
    C.say(
      keysStatus,
      'Key \u201c' + key.label + '\u201d created. Copy it now: it will not be shown again.',
      'ok',
    );
    newKeyValue.focus();
    newKeyValue.select();
  }

  /**
   * Asks, then revokes the key of the clicked button and marks its row.
   * @param {HTMLButtonElement} revoking
   */
  function revokeKey(revoking) {
    const id = revoking.getAttribute('data-revoke-key') || '';
    const label = revoking.getAttribute('data-label') || '';
    const question =
      'Revoke the key \u201c' +
      label +
      '\u201d? Programs using it stop working at once. This cannot be undone.';
    if (!window.confirm(question)) return;
    revoking.disabled = true;
    C.api('DELETE', '/api-keys/' + encodeURIComponent(id)).then(
      /** @param {ApiKey} key */
      function (key) {
        markRevoked(revoking, key);
        if (panel && panel.shownKeyId === id) panel.hide();
        C.say(keysStatus, 'Key \u201c' + label + '\u201d revoked.', 'ok');
        keysStatus.focus();
      },
      /** @param {ApiFailure} err */
      function (err) {
        revoking.disabled = false;
        C.say(keysStatus, err.message, 'error');
      },
    );
  }

  /**
   * @param {HTMLButtonElement} revoking
   * @param {ApiKey} key
   */
  function markRevoked(revoking, key) {
    const row = revoking.closest('tr');
    if (row) row.classList.add('revoked');
    const actionCell = revoking.parentElement;
    if (actionCell) {
      actionCell.textContent = '';
      actionCell.appendChild(C.el('span', 'muted', 'Revoked ' + C.when(key.revoked_at)));
    }
  }

  keysBody.addEventListener('click', function (event) {
    const button = C.clickedButton(event, 'button[data-revoke-key]');
    if (button) revokeKey(button);
  });
}
