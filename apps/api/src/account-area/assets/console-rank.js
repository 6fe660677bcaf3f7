// @ts-check
/*
 * The console's "Rank tracking" section: create, pause / resume and delete projects; paste
 * keywords (one per line) into a project; list its keywords with position, previous position
 * and movement; pause / resume and delete a keyword. Every record comes from the
 * /account/v1/rank routes and is written with textContent. Helpers and types: console-common.js.
 */
/* global SeoConsole */
'use strict';
{
  const C = SeoConsole;
  const status = C.$('rank-status', HTMLElement);
  const projectForm = C.$('rank-project-form', HTMLFormElement);
  const domainInput = C.$('rank-domain', HTMLInputElement);
  const nameInput = C.$('rank-name', HTMLInputElement);
  const projectsBody = C.$('rank-projects-body', HTMLTableSectionElement);
  const projectsEmpty = C.$('rank-projects-empty', HTMLElement);
  const detail = C.$('rank-project', HTMLElement);
  const detailName = C.$('rank-project-name', HTMLElement);
  const keywordsForm = C.$('rank-keywords-form', HTMLFormElement);
  const keywordsInput = C.$('rank-keywords', HTMLTextAreaElement);
  const keywordsStatus = C.$('rank-keywords-status', HTMLElement);
  const keywordsBody = C.$('rank-keywords-body', HTMLTableSectionElement);
  const keywordsEmpty = C.$('rank-keywords-empty', HTMLElement);
  const moreButton = C.$('rank-keywords-more', HTMLButtonElement);
  /** Keywords read per request (the API's page size bound is 500). */
  const PAGE = 100;

  /** @type {RankProject[]} */
  let projects = [];
  /** @type {RankProject | null} */
  let shown = null;
  /** The offset of the next page of the shown project's keywords, or null on the last page. */
  let nextOffset = /** @type {number | null} */ (null);

  /**
   * A button carrying what its click does.
   * @param {string} text
   * @param {string} action
   * @param {number} id
   * @param {string} label  what it acts on, for screen readers and the confirmation
   * @param {string} [className]
   */
  function actionButton(text, action, id, label, className) {
    const b = C.el('button', className, text);
    b.type = 'button';
    b.setAttribute('data-rank-action', action);
    b.setAttribute('data-id', String(id));
    b.setAttribute('data-label', label);
    b.appendChild(C.el('span', 'visually-hidden', ' ' + label));
    return b;
  }

  /** @param {RankProject} p */
  function projectRow(p) {
    const tr = C.el('tr');
    tr.setAttribute('data-project-id', String(p.project_id));
    const name = C.el('div');
    name.appendChild(C.el('strong', 'rank-project-label', p.name));
    if (p.name !== p.domain) name.appendChild(C.el('span', 'muted rank-domain', ' ' + p.domain));
    tr.appendChild(C.cell('Project', name));
    tr.appendChild(C.cell('Keywords', String(p.keywords_count), 'rank-count'));
    tr.appendChild(C.cell('Daily checks', p.tracking ? 'On' : 'Paused', 'rank-tracking'));
    const actions = C.el('div', 'actions');
    actions.appendChild(actionButton('Keywords', 'show', p.project_id, p.name));
    actions.appendChild(
      actionButton(p.tracking ? 'Pause' : 'Resume', 'track', p.project_id, p.name),
    );
    actions.appendChild(actionButton('Delete', 'delete-project', p.project_id, p.name, 'danger'));
    tr.appendChild(C.cell('Actions', actions, 'key-action'));
    return tr;
  }

  function renderProjects() {
    projectsBody.textContent = '';
    projects.forEach(function (p) {
      projectsBody.appendChild(projectRow(p));
    });
    projectsEmpty.hidden = projects.length > 0;
    projectsEmpty.textContent = 'No projects yet: create one above.';
    if (shown) {
      const id = shown.project_id;
      shown =
        projects.find(function (p) {
          return p.project_id === id;
        }) || null;
      if (!shown) detail.hidden = true;
      else detailName.textContent = shown.name;
    }
  }

  /** @returns {Promise<void>} */
  function loadProjects() {
    return C.api('GET', '/rank/projects').then(
      /** @param {{ projects: RankProject[] }} data */
      function (data) {
        projects = data.projects;
        renderProjects();
      },
      /** @param {ApiFailure} err */
      function (err) {
        projectsEmpty.textContent = 'Projects could not be loaded: ' + err.message;
      },
    );
  }

  /** @param {number | null} n */
  function position(n) {
    return n === null ? '\u2014' : String(n);
  }

  /**
   * The movement since the previous check: up (a better position) is positive.
   * @param {TrackedKeyword} k
   */
  function movement(k) {
    const change = k.position_change;
    if (change === null || change === undefined) {
      if (k.current_position !== null && k.previous_position === null && k.last_checked)
        return C.el('span', 'move', 'new');
      return C.el('span', 'muted', '\u2014');
    }
    if (change === 0) return C.el('span', 'move', '= 0');
    const up = change > 0;
    const span = C.el(
      'span',
      up ? 'move up' : 'move down',
      (up ? '\u25b2 ' : '\u25bc ') + Math.abs(change),
    );
    span.appendChild(C.el('span', 'visually-hidden', up ? ' up' : ' down'));
    return span;
  }

  /** @param {TrackedKeyword} k */
  function currentPosition(k) {
    if (k.current_position !== null) return position(k.current_position);
    return k.last_checked ? 'not in the results checked' : 'not checked yet';
  }

  /** @param {TrackedKeyword} k */
  function keywordRow(k) {
    const tr = C.el('tr');
    tr.setAttribute('data-keyword-id', String(k.keyword_id));
    tr.appendChild(C.cell('Keyword', k.keyword, 'rank-keyword'));
    tr.appendChild(C.cell('Market', k.country + ' \u00b7 ' + k.language + ' \u00b7 ' + k.device));
    tr.appendChild(C.cell('Position', currentPosition(k), 'rank-position'));
    tr.appendChild(C.cell('Previous', position(k.previous_position), 'rank-previous'));
    tr.appendChild(C.cell('Movement', movement(k), 'rank-movement'));
    tr.appendChild(C.cell('Status', k.status, 'rank-status'));
    const actions = C.el('div', 'actions');
    if (k.status === 'paused') {
      actions.appendChild(actionButton('Resume', 'resume-keyword', k.keyword_id, k.keyword));
    } else {
      actions.appendChild(actionButton('Pause', 'pause-keyword', k.keyword_id, k.keyword));
    }
    actions.appendChild(
      actionButton('Delete', 'delete-keyword', k.keyword_id, k.keyword, 'danger'),
    );
    tr.appendChild(C.cell('Actions', actions, 'key-action'));
    return tr;
  }

  /**
   * Reads a page of the shown project's keywords (from offset 0: the list anew).
   * @param {number} offset
   * @returns {Promise<void>}
   */
  function loadKeywords(offset) {
    if (!shown) return Promise.resolve();
    const id = shown.project_id;
    if (offset === 0) keywordsEmpty.textContent = 'Loading\u2026';
    return C.api(
      'GET',
      '/rank/keywords?project_id=' + id + '&limit=' + PAGE + '&offset=' + offset,
      undefined,
      { withMeta: true },
    ).then(
      /** @param {{ data: { keywords: TrackedKeyword[] }, meta: { next?: string | null } }} answer */
      function (answer) {
        if (!shown || shown.project_id !== id) return;
        if (offset === 0) keywordsBody.textContent = '';
        answer.data.keywords.forEach(function (k) {
          keywordsBody.appendChild(keywordRow(k));
        });
        nextOffset = answer.meta.next ? offset + answer.data.keywords.length : null;
        moreButton.hidden = nextOffset === null;
        keywordsEmpty.hidden = !!keywordsBody.firstChild;
        keywordsEmpty.textContent = 'No keywords yet: paste some above.';
      },
      /** @param {ApiFailure} err */
      function (err) {
        keywordsEmpty.hidden = false;
        keywordsEmpty.textContent = 'Keywords could not be loaded: ' + err.message;
      },
    );
  }

  /** @param {number} id */
  function showProject(id) {
    shown =
      projects.find(function (p) {
        return p.project_id === id;
      }) || null;
    if (!shown) return;
    detailName.textContent = shown.name;
    detail.hidden = false;
    keywordsBody.textContent = '';
    C.say(keywordsStatus, '');
    loadKeywords(0).then(function () {
      detail.focus();
    });
  }

  /**
   * @param {number} n
   * @param {string} one
   * @param {string} many
   */
  function count(n, one, many) {
    return n + ' ' + (n === 1 ? one : many);
  }

  /**
   * The plan-limit refusal (402) in plain words; nothing was added.
   * @param {ApiFailure} err
   */
  function limitMessage(err) {
    const m = err.meta || {};
    if (m.limit === undefined) return err.message;
    return (
      'Nothing was added: your plan allows ' +
      count(Number(m.limit), 'tracked keyword', 'tracked keywords') +
      ', ' +
      m.used +
      ' are in use and this batch would add ' +
      m.requested +
      '. Remove some lines or some tracked keywords, or contact us for a larger plan.'
    );
  }

  function addKeywords() {
    if (!shown) return Promise.resolve();
    const lines = keywordsInput.value
      .split(/\r?\n/)
      .map(function (line) {
        return line.trim();
      })
      .filter(function (line) {
        return line !== '';
      });
    if (lines.length === 0) {
      C.say(keywordsStatus, 'Paste at least one keyword, one per line.', 'error');
      keywordsInput.focus();
      return Promise.resolve();
    }
    const body = {
      keywords: lines,
      country: C.$('rank-country', HTMLSelectElement).value,
      language: C.$('rank-language', HTMLSelectElement).value,
      device: C.$('rank-device', HTMLSelectElement).value,
    };
    return C.api('POST', '/rank/projects/' + shown.project_id + '/keywords', body).then(
      /** @param {{ added: TrackedKeyword[], already_tracked: TrackedKeyword[], tracked_keywords: { used: number, limit: number | null } }} data */
      function (data) {
        keywordsInput.value = '';
        const limit = data.tracked_keywords.limit;
        const message =
          'Added ' +
          count(data.added.length, 'keyword', 'keywords') +
          '; ' +
          data.already_tracked.length +
          ' already tracked. ' +
          (limit === null
            ? data.tracked_keywords.used + ' tracked keywords in use.'
            : data.tracked_keywords.used +
              ' of ' +
              limit +
              ' tracked keywords of your plan in use.');
        return Promise.all([loadKeywords(0), loadProjects()]).then(function () {
          C.say(keywordsStatus, message, 'ok');
        });
      },
      /** @param {ApiFailure} err */
      function (err) {
        C.say(keywordsStatus, err.status === 402 ? limitMessage(err) : err.message, 'error');
      },
    );
  }

  function createProject() {
    const domain = domainInput.value.trim();
    if (!domain) {
      C.say(status, 'Enter the domain to track, e.g. example.com.', 'error');
      domainInput.focus();
      return Promise.resolve();
    }
    /** @type {{ domain: string, name?: string }} */
    const body = { domain: domain };
    if (nameInput.value.trim()) body.name = nameInput.value.trim();
    return C.api('POST', '/rank/projects', body).then(
      /** @param {RankProject} p */
      function (p) {
        const known = projects.some(function (q) {
          return q.project_id === p.project_id;
        });
        projectForm.reset();
        return loadProjects().then(function () {
          showProject(p.project_id);
          C.say(
            status,
            known
              ? '\u201c' + p.domain + '\u201d is already tracked as \u201c' + p.name + '\u201d.'
              : 'Project \u201c' + p.name + '\u201d created: add keywords to it.',
            'ok',
          );
        });
      },
      /** @param {ApiFailure} err */
      function (err) {
        C.say(status, err.message, 'error');
      },
    );
  }

  /**
   * Runs a change for a clicked button (disabled meanwhile), reloads what it changed, then
   * says it is done.
   * @param {HTMLButtonElement} button
   * @param {string} method
   * @param {string} path
   * @param {object | undefined} body
   * @param {HTMLElement} out
   * @param {string} done
   * @param {() => Promise<unknown>} reload
   */
  function change(button, method, path, body, out, done, reload) {
    button.disabled = true;
    C.api(method, path, body).then(
      function () {
        // Said once the lists show the change.
        return reload().then(function () {
          C.say(out, done, 'ok');
        });
      },
      /** @param {ApiFailure} err */
      function (err) {
        button.disabled = false;
        C.say(out, err.message, 'error');
      },
    );
  }

  /** @param {HTMLButtonElement} button */
  function projectAction(button) {
    const id = Number(button.getAttribute('data-id'));
    const label = button.getAttribute('data-label') || '';
    const action = button.getAttribute('data-rank-action');
    const p = projects.find(function (q) {
      return q.project_id === id;
    });
    if (!p) return;
    if (action === 'show') {
      showProject(id);
      return;
    }
    if (action === 'track') {
      change(
        button,
        'PATCH',
        '/rank/projects/' + id,
        { tracking: !p.tracking },
        status,
        '\u201c' + label + '\u201d: daily checks ' + (p.tracking ? 'paused.' : 'resumed.'),
        loadProjects,
      );
      return;
    }
    if (
      !window.confirm(
        'Delete the project \u201c' +
          label +
          '\u201d with its ' +
          count(p.keywords_count, 'keyword', 'keywords') +
          ' and their position history? This cannot be undone.',
      )
    )
      return;
    change(
      button,
      'DELETE',
      '/rank/projects/' + id,
      undefined,
      status,
      'Project \u201c' + label + '\u201d deleted.',
      loadProjects,
    );
  }

  /** @param {HTMLButtonElement} button */
  function keywordAction(button) {
    const id = Number(button.getAttribute('data-id'));
    const label = button.getAttribute('data-label') || '';
    const action = button.getAttribute('data-rank-action');
    const reload = function () {
      return Promise.all([loadKeywords(0), loadProjects()]);
    };
    if (action === 'delete-keyword') {
      if (
        !window.confirm(
          'Stop tracking \u201c' +
            label +
            '\u201d and delete its position history? This cannot be undone.',
        )
      )
        return;
      change(
        button,
        'DELETE',
        '/rank/keywords/' + id,
        undefined,
        keywordsStatus,
        '\u201c' + label + '\u201d deleted.',
        reload,
      );
      return;
    }
    const pause = action === 'pause-keyword';
    change(
      button,
      'PATCH',
      '/rank/keywords/' + id,
      { status: pause ? 'paused' : 'active' },
      keywordsStatus,
      '\u201c' + label + '\u201d ' + (pause ? 'paused.' : 'resumed.'),
      reload,
    );
  }

  projectForm.addEventListener('submit', function (event) {
    event.preventDefault();
    C.whileSubmitting(projectForm, createProject);
  });
  keywordsForm.addEventListener('submit', function (event) {
    event.preventDefault();
    C.whileSubmitting(keywordsForm, addKeywords);
  });
  projectsBody.addEventListener('click', function (event) {
    const button = C.clickedButton(event, 'button[data-rank-action]');
    if (button) projectAction(button);
  });
  keywordsBody.addEventListener('click', function (event) {
    const button = C.clickedButton(event, 'button[data-rank-action]');
    if (button) keywordAction(button);
  });
  moreButton.addEventListener('click', function () {
    if (nextOffset !== null) loadKeywords(nextOffset);
  });
  loadProjects();
}
