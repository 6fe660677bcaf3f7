// @ts-check
/*
 * The console's "Search Console" section (docs/gsc-connect.md): the Google connections with
 * their status ("Reconnect" when Google refused the refresh token), each connection's sites
 * with an "Add" button, the properties with their last sync and backfill progress, remove,
 * disconnect, and "Add a sandbox property" when the server has no Google client. Helpers:
 * console-common.js.
 */
/* global SeoConsole */
'use strict';
{
  const C = SeoConsole;
  const connectionsList = C.$('gsc-connections', HTMLUListElement);
  const connectionsEmpty = C.$('gsc-connections-empty', HTMLElement);
  const propertiesBody = C.$('gsc-properties-body', HTMLTableSectionElement);
  const propertiesEmpty = C.$('gsc-properties-empty', HTMLElement);
  const status = C.$('gsc-status', HTMLElement);

  /**
   * @typedef {{ site_url: string, permission_level: string, property_id: number | null }} GscSite
   * @typedef {{ connection_id: number, google_email: string, status: string,
   *   created_at: string, sites: GscSite[] }} GscConnection
   * @typedef {{ property_id: number, property_uri: string, display_name: string,
   *   status: string, last_synced_at: string | null, last_sync_status: string | null,
   *   google_email: string, is_sandbox: boolean, connection_id: number | null,
   *   backfill_days_done: number, backfill_days_total: number }} GscProperty
   */

  /** @param {string} text @param {Record<string, string>} data @param {string} [className] */
  function button(text, data, className) {
    const b = C.el('button', className || '', text);
    b.type = 'button';
    Object.keys(data).forEach(function (k) {
      b.setAttribute('data-' + k, data[k]);
    });
    return b;
  }

  /** @param {GscConnection} c */
  function connectionItem(c) {
    const li = C.el('li');
    li.setAttribute('data-gsc-connection', String(c.connection_id));
    const text = C.el('div');
    text.appendChild(C.el('strong', '', c.google_email));
    const state = c.status === 'reauth_required' ? 'Google refused access: reconnect' : c.status;
    text.appendChild(
      C.el(
        'span',
        'meta gsc-connection-status',
        'Connected ' + C.when(c.created_at) + ' \u00b7 ' + state,
      ),
    );
    const sites = C.el('ul', 'gsc-sites');
    c.sites.forEach(function (s) {
      const item = C.el('li');
      item.setAttribute('data-site', s.site_url);
      item.appendChild(C.el('code', '', s.site_url));
      item.appendChild(C.el('span', 'meta', ' ' + s.permission_level + ' '));
      if (s.property_id !== null) {
        item.appendChild(C.el('span', 'muted', 'synced'));
      } else if (s.permission_level === 'siteUnverifiedUser') {
        item.appendChild(C.el('span', 'muted', 'not verified: no data'));
      } else if (c.status === 'active') {
        const add = button('Add', {
          'gsc-add': s.site_url,
          'gsc-connection': String(c.connection_id),
        });
        add.appendChild(C.el('span', 'visually-hidden', ' ' + s.site_url));
        item.appendChild(add);
      }
      sites.appendChild(item);
    });
    text.appendChild(sites);
    li.appendChild(text);
    if (c.status === 'reauth_required') {
      const again = C.el('a', 'button primary', 'Reconnect');
      again.href = '/account/gsc/connect';
      again.id = 'gsc-reconnect-' + c.connection_id;
      li.appendChild(again);
    }
    const off = button(
      'Disconnect',
      { 'gsc-disconnect': String(c.connection_id), label: c.google_email },
      'danger',
    );
    off.appendChild(C.el('span', 'visually-hidden', ' ' + c.google_email));
    li.appendChild(off);
    return li;
  }

  /** @param {GscProperty} p */
  function propertyRow(p) {
    const tr = C.el('tr');
    tr.setAttribute('data-gsc-property', String(p.property_id));
    tr.appendChild(C.cell('Property', C.el('code', '', p.property_uri)));
    tr.appendChild(C.cell('Google account', p.is_sandbox ? 'sandbox' : p.google_email));
    tr.appendChild(C.cell('Status', p.status, 'gsc-property-status'));
    const last =
      (p.last_sync_status || 'pending') +
      (p.last_synced_at ? ' \u00b7 ' + C.when(p.last_synced_at) : '');
    tr.appendChild(C.cell('Last sync', last, 'gsc-last-sync'));
    const backfill =
      p.backfill_days_total > 0
        ? p.backfill_days_done + ' of ' + p.backfill_days_total + ' days'
        : 'not started';
    tr.appendChild(C.cell('Backfill', backfill, 'gsc-backfill'));
    const remove = button(
      'Remove',
      { 'gsc-remove': String(p.property_id), label: p.property_uri },
      'danger',
    );
    remove.appendChild(C.el('span', 'visually-hidden', ' ' + p.property_uri));
    tr.appendChild(C.cell('Action', remove));
    return tr;
  }

  function load() {
    return Promise.all([C.api('GET', '/gsc/connections'), C.api('GET', '/gsc/properties')]).then(
      /** @param {[GscConnection[], GscProperty[]]} both */
      function (both) {
        connectionsList.textContent = '';
        both[0].forEach(function (c) {
          connectionsList.appendChild(connectionItem(c));
        });
        connectionsEmpty.hidden = both[0].length > 0;
        connectionsEmpty.textContent = 'No Google account connected.';
        propertiesBody.textContent = '';
        both[1].forEach(function (p) {
          propertiesBody.appendChild(propertyRow(p));
        });
        propertiesEmpty.hidden = both[1].length > 0;
        propertiesEmpty.textContent = 'No properties yet.';
      },
      /** @param {ApiFailure} err */
      function (err) {
        connectionsEmpty.textContent = 'Search Console could not be loaded: ' + err.message;
      },
    );
  }

  /**
   * Runs a change, then reloads the section and says how it went.
   * @param {HTMLButtonElement} b @param {Promise<unknown>} work @param {string} done
   */
  function change(b, work, done) {
    b.disabled = true;
    work.then(
      function () {
        b.disabled = false;
        return load().then(function () {
          C.say(status, done, 'ok');
          status.focus();
        });
      },
      /** @param {ApiFailure} err */
      function (err) {
        b.disabled = false;
        C.say(status, err.message, 'error');
      },
    );
  }

  connectionsList.addEventListener('click', function (event) {
    const add = C.clickedButton(event, 'button[data-gsc-add]');
    if (add) {
      const site = add.getAttribute('data-gsc-add') || '';
      const body = {
        connection_id: Number(add.getAttribute('data-gsc-connection')),
        site_url: site,
      };
      change(
        add,
        C.api('POST', '/gsc/properties', body),
        '\u201c' + site + '\u201d added: its sync starts now.',
      );
      return;
    }
    const off = C.clickedButton(event, 'button[data-gsc-disconnect]');
    if (off) {
      const label = off.getAttribute('data-label') || '';
      const q =
        'Disconnect ' +
        label +
        '? Access is revoked at Google and syncing stops; the synced data stays until you remove its properties.';
      if (!window.confirm(q)) return;
      const id = off.getAttribute('data-gsc-disconnect') || '';
      change(
        off,
        C.api('DELETE', '/gsc/connections/' + encodeURIComponent(id)),
        label + ' disconnected.',
      );
    }
  });

  propertiesBody.addEventListener('click', function (event) {
    const remove = C.clickedButton(event, 'button[data-gsc-remove]');
    if (!remove) return;
    const label = remove.getAttribute('data-label') || '';
    if (!window.confirm('Remove ' + label + ' and all its synced data? This cannot be undone.'))
      return;
    const id = remove.getAttribute('data-gsc-remove') || '';
    change(
      remove,
      C.api('DELETE', '/gsc/properties/' + encodeURIComponent(id)),
      label + ' removed.',
    );
  });

  const sandbox = document.getElementById('gsc-add-sandbox');
  if (sandbox instanceof HTMLButtonElement) {
    sandbox.addEventListener('click', function () {
      change(
        sandbox,
        C.api('POST', '/gsc/sandbox-properties'),
        'Sandbox property added: its sync starts now.',
      );
    });
  }

  if (/[?&]gsc_connected=/.test(window.location.search)) {
    C.say(status, 'Google account connected: pick the sites to sync below.', 'ok');
  }
  void load();
}
