// @ts-check
/*
 * The console's "Connected apps" section: lists the apps connected through OAuth and
 * disconnects one. Helpers and types: console-common.js.
 */
/* global SeoConsole */
'use strict';
{
  const C = SeoConsole;
  const connectionsList = C.$('connections-list', HTMLUListElement);
  const connectionsEmpty = C.$('connections-empty', HTMLElement);
  const connectionsStatus = C.$('connections-status', HTMLElement);

  /** @param {Connection} c */
  function connectionItem(c) {
    const li = C.el('li');
    li.setAttribute('data-connection-id', String(c.id));
    const text = C.el('div');
    text.appendChild(C.el('strong', '', c.client_name || c.client_id));
    const scopes = Array.isArray(c.scopes) ? c.scopes.join(', ') : String(c.scopes || '');
    text.appendChild(
      C.el(
        'span',
        'meta',
        'Connected ' + C.when(c.created_at) + (scopes ? ' \u00b7 access: ' + scopes : ''),
      ),
    );
    text.appendChild(
      C.el('span', 'meta', c.last_used_at ? 'Last used ' + C.when(c.last_used_at) : 'Not used yet'),
    );
    li.appendChild(text);
    const b = C.el('button', 'danger', 'Revoke');
    b.type = 'button';
    b.setAttribute('data-revoke-connection', String(c.id));
    b.setAttribute('data-label', c.client_name || c.client_id || '');
    b.appendChild(C.el('span', 'visually-hidden', ' ' + (c.client_name || c.client_id || 'app')));
    li.appendChild(b);
    return li;
  }

  function showConnectionsEmpty() {
    const none = !connectionsList.firstChild;
    connectionsEmpty.hidden = !none;
    if (none) connectionsEmpty.textContent = 'No connected apps.';
  }

  /**
   * Asks, then disconnects the app of the clicked button and removes its item.
   * @param {HTMLButtonElement} revoking
   */
  function disconnect(revoking) {
    const id = revoking.getAttribute('data-revoke-connection') || '';
    const label = revoking.getAttribute('data-label') || '';
    if (!window.confirm('Disconnect \u201c' + label + '\u201d? It loses access at once.')) return;
    revoking.disabled = true;
    C.api('DELETE', '/connections/' + encodeURIComponent(id)).then(
      function () {
        const li = revoking.closest('li');
        if (li) li.remove();
        showConnectionsEmpty();
        C.say(connectionsStatus, '\u201c' + label + '\u201d disconnected.', 'ok');
      },
      /** @param {ApiFailure} err */
      function (err) {
        revoking.disabled = false;
        C.say(connectionsStatus, err.message, 'error');
      },
    );
  }

  C.api('GET', '/connections').then(
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
    const button = C.clickedButton(event, 'button[data-revoke-connection]');
    if (button) disconnect(button);
  });
}
