// @ts-check
/*
 * The console's "Site audits" section: the account's audits, newest first
 * (GET /account/v1/site-audits?status=&limit=&offset=), with their status, score and a link
 * to each complete audit's report; a status filter and "Show more audits" (pages of 20).
 * Helpers and types: console-common.js.
 */
/* global SeoConsole */
'use strict';
{
  const C = SeoConsole;
  const body = C.$('audits-body', HTMLTableSectionElement);
  const empty = C.$('audits-empty', HTMLElement);
  const status = C.$('audits-status', HTMLElement);
  const count = C.$('audits-count', HTMLElement);
  const more = C.$('audits-more', HTMLButtonElement);
  const filter = C.$('audits-status-filter', HTMLSelectElement);
  const PAGE = 20;
  let offset = 0;
  /** Bumped on each new listing, so an older answer arriving late is dropped. */
  let generation = 0;

  /** @param {SiteAuditJob} job */
  function siteOf(job) {
    return job.url || (job.data ? job.data.domain : '') || job.job_id;
  }

  /** @param {SiteAuditJob} job */
  function stateOf(job) {
    if (job.status === 'running') return 'running (' + job.progress + ' %)';
    if (job.status === 'failed' && job.error) return 'failed: ' + job.error.message;
    return job.status;
  }

  /** @param {SiteAuditJob} job */
  function auditRow(job) {
    const tr = C.el('tr');
    tr.setAttribute('data-job-id', job.job_id);
    const site = C.el('span');
    site.appendChild(C.el('span', '', siteOf(job)));
    site.appendChild(C.el('code', 'meta', job.job_id));
    tr.appendChild(C.cell('Site', site, 'audit-site'));
    tr.appendChild(C.cell('Status', stateOf(job), 'audit-state audit-state-' + job.status));
    tr.appendChild(C.cell('Started', C.when(job.created_at)));
    tr.appendChild(
      C.cell(
        'Score',
        job.data ? job.data.total_score + ' / 100 · ' + job.data.pages_crawled + ' pages' : '—',
      ),
    );
    if (job.data && job.data.report_url) {
      const a = C.el('a', 'audit-report', 'Open report');
      a.href = job.data.report_url;
      a.appendChild(C.el('span', 'visually-hidden', ' of ' + siteOf(job)));
      tr.appendChild(C.cell('Report', a));
    } else {
      tr.appendChild(C.cell('Report', job.status === 'failed' ? 'none' : 'not yet'));
    }
    return tr;
  }

  /** @param {boolean} fresh  a new listing (filter changed) rather than the next page */
  function load(fresh) {
    if (fresh) offset = 0;
    const mine = ++generation;
    more.disabled = true;
    const query =
      '?limit=' +
      PAGE +
      '&offset=' +
      offset +
      (filter.value ? '&status=' + encodeURIComponent(filter.value) : '');
    C.api('GET', '/site-audits' + query, undefined, { withMeta: true })
      .then(
        /** @param {{ data: SiteAuditJob[], meta: { total?: number } }} answer */
        function (answer) {
          if (mine !== generation) return;
          if (fresh) body.textContent = '';
          answer.data.forEach(function (job) {
            body.appendChild(auditRow(job));
          });
          offset += answer.data.length;
          const total = typeof answer.meta.total === 'number' ? answer.meta.total : offset;
          count.textContent = total > 0 ? '(' + offset + ' of ' + total + ' shown)' : '';
          more.hidden = offset >= total;
          empty.hidden = !!body.firstChild;
          empty.textContent = filter.value
            ? 'No ' + filter.value + ' audits.'
            : 'No site audits yet: start one with POST /api/v1/site-audit.';
          C.say(status, '');
        },
        /** @param {ApiFailure} err */
        function (err) {
          if (mine !== generation) return;
          C.say(status, 'Site audits could not be loaded: ' + err.message, 'error');
          empty.textContent = '';
        },
      )
      .then(function () {
        more.disabled = false;
      });
  }

  filter.addEventListener('change', function () {
    load(true);
  });
  more.addEventListener('click', function () {
    load(false);
  });
  load(true);
}
