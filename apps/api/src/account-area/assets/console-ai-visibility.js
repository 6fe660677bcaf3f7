// @ts-check
/*
 * The console's "AI visibility" section: create, edit and delete projects (brand, aliases,
 * domain, market, engine, frequency, prompts one per line, competitors "name, domain" one per
 * line); per project the visibility score over its scans (the chart's geometry is the
 * server's, pages/bar-chart.ts, placed here as SVG elements) and the latest answer to each
 * prompt with the brand and the competitors highlighted and the cited sources linked (http and
 * https only). Every record comes from the /account/v1/ai-visibility routes and is written
 * with textContent and attributes, never HTML. Helpers and types: console-common.js.
 */
/* global SeoConsole */
'use strict';

/**
 * @typedef {{ id: number, domain: string, brand_name: string, target_country: string,
 *   target_language: string, ai_engine: string, tracking_frequency: string, status: string,
 *   visibility_score: number | null, score_change: number | null }} AiProject
 * @typedef {{ project_id: number, brand_aliases: string[], prompts: string[],
 *   competitors: Array<{ name: string, domain: string }>, ai_engine: string,
 *   tracking_frequency: string, next_scan_at: string | null }} AiSettings
 * @typedef {{ snapshot_date: string, visibility_score: number, geo_score: number,
 *   competition_score: number, mention_rate: number, citation_rate: number }} AiScore
 * @typedef {{ width: number, height: number, plotLeft: number, plotRight: number,
 *   labelY: number, tickX: number, summary: string,
 *   ticks: Array<{ y: number, label: string }>,
 *   bars: Array<{ x: number, width: number, title: string,
 *     segments: Array<{ kind: string, y: number, height: number }> }>,
 *   labels: Array<{ x: number, text: string }> }} BarChartGeometry
 * @typedef {{ prompt: string, scan_date: string | null, status: string | null,
 *   answer: string | null, cited_urls: string[] }} AiAnswer
 * @typedef {{ brand: { name: string, aliases: string[], domain: string },
 *   competitors: Array<{ name: string, domain: string }>, answers: AiAnswer[] }} AiAnswers
 */
{
  const C = SeoConsole;
  const ENGINES = /** @type {Record<string, string>} */ ({
    chatgpt: 'ChatGPT',
    claude: 'Claude',
    gemini: 'Gemini',
    perplexity: 'Perplexity',
  });
  const status = C.$('ai-status', HTMLElement);
  const form = C.$('ai-project-form', HTMLFormElement);
  const formHeading = C.$('ai-form-heading', HTMLElement);
  const submit = C.$('ai-submit', HTMLButtonElement);
  const cancel = C.$('ai-cancel', HTMLButtonElement);
  const brandInput = C.$('ai-brand', HTMLInputElement);
  const domainInput = C.$('ai-domain', HTMLInputElement);
  const aliasesInput = C.$('ai-aliases', HTMLTextAreaElement);
  const countryInput = C.$('ai-country', HTMLSelectElement);
  const languageInput = C.$('ai-language', HTMLSelectElement);
  const engineInput = C.$('ai-engine', HTMLSelectElement);
  const frequencyInput = C.$('ai-frequency', HTMLSelectElement);
  const promptsInput = C.$('ai-prompts', HTMLTextAreaElement);
  const competitorsInput = C.$('ai-competitors', HTMLTextAreaElement);
  const projectsBody = C.$('ai-projects-body', HTMLTableSectionElement);
  const projectsEmpty = C.$('ai-projects-empty', HTMLElement);
  const detail = C.$('ai-project', HTMLElement);
  const detailName = C.$('ai-project-name', HTMLElement);
  const chartFigure = C.$('ai-chart-figure', HTMLElement);
  const chart = /** @type {SVGSVGElement} */ (
    /** @type {unknown} */ (document.getElementById('ai-chart'))
  );
  /** The SVG namespace, as the page's own <svg> has it (no URL written here). */
  const SVG = chart.namespaceURI;
  const scoresBody = C.$('ai-scores-body', HTMLTableSectionElement);
  const answersList = C.$('ai-answers', HTMLOListElement);
  const answersEmpty = C.$('ai-answers-empty', HTMLElement);

  /** @type {AiProject[]} */
  let projects = [];
  /** The project being edited, or null when the form creates one. */
  let editing = /** @type {number | null} */ (null);
  /** The project whose results are shown. */
  let shown = /** @type {number | null} */ (null);

  /** @param {string} text */
  function lines(text) {
    return text
      .split(/\r?\n/)
      .map(function (line) {
        return line.trim();
      })
      .filter(function (line) {
        return line !== '';
      });
  }

  /**
   * "Name, domain" per line (the last comma splits; a line without one is both).
   * @param {string} text
   */
  function competitorLines(text) {
    return lines(text).map(function (line) {
      const comma = line.lastIndexOf(',');
      if (comma < 0) return { name: line, domain: line };
      return { name: line.slice(0, comma).trim(), domain: line.slice(comma + 1).trim() };
    });
  }

  /**
   * A button carrying what its click does.
   * @param {string} text
   * @param {string} action
   * @param {number} id
   * @param {string} label
   * @param {string} [className]
   */
  function actionButton(text, action, id, label, className) {
    const b = C.el('button', className, text);
    b.type = 'button';
    b.setAttribute('data-ai-action', action);
    b.setAttribute('data-id', String(id));
    b.setAttribute('data-label', label);
    b.appendChild(C.el('span', 'visually-hidden', ' ' + label));
    return b;
  }

  /** @param {AiProject} p */
  function projectRow(p) {
    const tr = C.el('tr');
    tr.setAttribute('data-ai-project-id', String(p.id));
    const name = C.el('div');
    name.appendChild(C.el('strong', 'ai-brand', p.brand_name));
    name.appendChild(C.el('span', 'muted', ' ' + p.domain + ' \u00b7 ' + p.target_country));
    tr.appendChild(C.cell('Brand', name));
    tr.appendChild(
      C.cell('Engine', (ENGINES[p.ai_engine] || p.ai_engine) + ', ' + p.tracking_frequency),
    );
    tr.appendChild(
      C.cell(
        'Visibility',
        p.visibility_score === null ? 'not scanned yet' : String(p.visibility_score),
        'ai-score',
      ),
    );
    const actions = C.el('div', 'actions');
    actions.appendChild(actionButton('Results', 'show', p.id, p.brand_name));
    actions.appendChild(actionButton('Edit', 'edit', p.id, p.brand_name));
    actions.appendChild(actionButton('Delete', 'delete', p.id, p.brand_name, 'danger'));
    tr.appendChild(C.cell('Actions', actions, 'key-action'));
    return tr;
  }

  /** @returns {Promise<void>} */
  function loadProjects() {
    return C.api('GET', '/ai-visibility/projects').then(
      /** @param {{ projects: AiProject[] }} data */
      function (data) {
        projects = data.projects;
        projectsBody.textContent = '';
        projects.forEach(function (p) {
          projectsBody.appendChild(projectRow(p));
        });
        projectsEmpty.hidden = projects.length > 0;
        projectsEmpty.textContent = 'No projects yet: create one above.';
        if (shown !== null && !find(shown)) {
          shown = null;
          detail.hidden = true;
        }
      },
      /** @param {ApiFailure} err */
      function (err) {
        projectsEmpty.textContent = 'Projects could not be loaded: ' + err.message;
      },
    );
  }

  /** @param {number} id */
  function find(id) {
    return (
      projects.find(function (p) {
        return p.id === id;
      }) || null
    );
  }

  /**
   * An SVG element with its attributes.
   * @param {string} tag
   * @param {Record<string, string | number>} attrs
   */
  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (name) {
      node.setAttribute(name, String(attrs[name]));
    });
    return node;
  }

  /**
   * Places the server's chart: grid lines and their labels, a bar per scan, date labels.
   * @param {BarChartGeometry} g
   */
  function drawChart(g) {
    chart.textContent = '';
    chart.setAttribute('viewBox', '0 0 ' + g.width + ' ' + g.height);
    const title = svg('title', { id: 'ai-chart-title' });
    title.textContent = g.summary;
    chart.appendChild(title);
    g.ticks.forEach(function (t) {
      chart.appendChild(
        svg('line', { class: 'grid', x1: g.plotLeft, x2: g.plotRight, y1: t.y, y2: t.y }),
      );
      const label = svg('text', { class: 'tick', x: g.tickX, y: t.y });
      label.textContent = t.label;
      chart.appendChild(label);
    });
    g.bars.forEach(function (b) {
      const group = svg('g', { class: 'bar' });
      const tip = svg('title', {});
      tip.textContent = b.title;
      group.appendChild(tip);
      b.segments.forEach(function (s) {
        group.appendChild(
          svg('rect', {
            class: 'seg seg-' + s.kind,
            x: b.x,
            y: s.y,
            width: b.width,
            height: s.height,
          }),
        );
      });
      chart.appendChild(group);
    });
    g.labels.forEach(function (l) {
      const text = svg('text', { class: 'day', x: l.x, y: g.labelY });
      text.textContent = l.text;
      chart.appendChild(text);
    });
  }

  /** @param {number} n */
  function fixed(n) {
    return (Math.round(n * 10) / 10).toFixed(1);
  }

  /** @param {number} id */
  function loadScores(id) {
    return C.api('GET', '/ai-visibility/projects/' + id + '/scores').then(
      /** @param {{ scores: AiScore[], chart: BarChartGeometry }} data */
      function (data) {
        if (shown !== id) return;
        drawChart(data.chart);
        chartFigure.hidden = data.scores.length === 0;
        scoresBody.textContent = '';
        data.scores
          .slice()
          .reverse()
          .forEach(function (s) {
            const tr = C.el('tr');
            tr.appendChild(C.cell('Date', s.snapshot_date));
            tr.appendChild(C.cell('Visibility', fixed(s.visibility_score)));
            tr.appendChild(C.cell('GEO', fixed(s.geo_score)));
            tr.appendChild(C.cell('Competition', fixed(s.competition_score)));
            tr.appendChild(C.cell('Mentioned in', fixed(s.mention_rate) + ' %'));
            tr.appendChild(C.cell('Cited in', fixed(s.citation_rate) + ' %'));
            scoresBody.appendChild(tr);
          });
      },
      /** @param {ApiFailure} err */
      function (err) {
        C.say(status, 'Scores could not be loaded: ' + err.message, 'error');
      },
    );
  }

  /** @param {string} s */
  function escapeRegExp(s) {
    return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }

  /**
   * The answer's text as nodes: every whole-word, case-insensitive occurrence of a tracked
   * name or domain in a <mark> of its kind (the longest name first), the rest as text.
   * @param {string} text
   * @param {Array<{ term: string, kind: string }>} terms
   */
  function highlighted(text, terms) {
    const out = document.createDocumentFragment();
    const kinds = /** @type {Record<string, string>} */ ({});
    const usable = terms
      .filter(function (t) {
        return t.term.trim() !== '';
      })
      .sort(function (a, b) {
        return b.term.length - a.term.length;
      });
    usable.forEach(function (t) {
      const key = t.term.toLowerCase();
      if (!(key in kinds)) kinds[key] = t.kind;
    });
    if (usable.length === 0) {
      out.appendChild(document.createTextNode(text));
      return out;
    }
    const pattern = new RegExp(
      '(?<![\\p{L}\\p{N}_])(' +
        usable
          .map(function (t) {
            return escapeRegExp(t.term);
          })
          .join('|') +
        ')(?![\\p{L}\\p{N}_])',
      'giu',
    );
    let at = 0;
    for (const m of text.matchAll(pattern)) {
      const index = m.index || 0;
      if (index > at) out.appendChild(document.createTextNode(text.slice(at, index)));
      const kind = kinds[m[0].toLowerCase()] || 'competitor';
      out.appendChild(C.el('mark', 'hl-' + kind, m[0]));
      at = index + m[0].length;
    }
    if (at < text.length) out.appendChild(document.createTextNode(text.slice(at)));
    return out;
  }

  /**
   * A cited source: a link when it is an http or https URL, else its text only.
   * @param {string} url
   */
  function source(url) {
    const li = C.el('li');
    let parsed = null;
    try {
      parsed = new URL(url);
    } catch {
      parsed = null;
    }
    if (parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) {
      const a = C.el('a', undefined, url);
      a.href = parsed.href;
      a.rel = 'noopener noreferrer nofollow';
      a.target = '_blank';
      li.appendChild(a);
    } else {
      li.appendChild(C.el('span', 'muted', url));
    }
    return li;
  }

  /** @param {number} id */
  function loadAnswers(id) {
    answersEmpty.hidden = false;
    answersEmpty.textContent = 'Loading\u2026';
    return C.api('GET', '/ai-visibility/projects/' + id + '/answers').then(
      /** @param {AiAnswers} data */
      function (data) {
        if (shown !== id) return;
        /** @type {Array<{ term: string, kind: string }>} */
        const terms = [data.brand.name, data.brand.domain]
          .concat(data.brand.aliases)
          .map(function (term) {
            return { term: term, kind: 'brand' };
          });
        data.competitors.forEach(function (c) {
          terms.push({ term: c.name, kind: 'competitor' }, { term: c.domain, kind: 'competitor' });
        });
        answersList.textContent = '';
        data.answers.forEach(function (a) {
          const li = C.el('li', 'ai-answer');
          li.appendChild(C.el('strong', 'ai-prompt', a.prompt));
          if (a.status === null) {
            li.appendChild(C.el('p', 'muted', 'Not asked yet: the next scan asks it.'));
          } else if (a.status !== 'answered' || a.answer === null) {
            li.appendChild(
              C.el('p', 'muted', 'No answer on ' + a.scan_date + ': asked again at the next scan.'),
            );
          } else {
            li.appendChild(C.el('span', 'muted', ' ' + a.scan_date));
            const p = C.el('p', 'ai-answer-text');
            p.appendChild(highlighted(a.answer, terms));
            li.appendChild(p);
            if (a.cited_urls.length > 0) {
              const list = C.el('ul', 'ai-sources');
              a.cited_urls.forEach(function (u) {
                list.appendChild(source(u));
              });
              li.appendChild(C.el('span', 'muted', 'Sources cited:'));
              li.appendChild(list);
            }
          }
          answersList.appendChild(li);
        });
        answersEmpty.hidden = data.answers.length > 0;
        answersEmpty.textContent = 'The project has no prompts.';
      },
      /** @param {ApiFailure} err */
      function (err) {
        answersEmpty.textContent = 'Answers could not be loaded: ' + err.message;
      },
    );
  }

  /** @param {number} id */
  function showProject(id) {
    const p = find(id);
    if (!p) return Promise.resolve();
    shown = id;
    detailName.textContent = p.brand_name + ' (' + p.domain + ')';
    detail.hidden = false;
    return Promise.all([loadScores(id), loadAnswers(id)]).then(function () {
      detail.focus();
    });
  }

  /** The form back to a new project. */
  function resetForm() {
    editing = null;
    form.reset();
    formHeading.textContent = 'New project';
    submit.textContent = 'Create AI-visibility project';
    cancel.hidden = true;
  }

  /** @param {number} id */
  function editProject(id) {
    const p = find(id);
    if (!p) return;
    C.api('GET', '/ai-visibility/projects/' + id + '/settings').then(
      /** @param {AiSettings} s */
      function (s) {
        editing = id;
        brandInput.value = p.brand_name;
        domainInput.value = p.domain;
        countryInput.value = p.target_country;
        languageInput.value = p.target_language;
        engineInput.value = s.ai_engine;
        frequencyInput.value = s.tracking_frequency;
        aliasesInput.value = s.brand_aliases.join('\n');
        promptsInput.value = s.prompts.join('\n');
        competitorsInput.value = s.competitors
          .map(function (c) {
            return c.name + ', ' + c.domain;
          })
          .join('\n');
        formHeading.textContent = 'Edit \u201c' + p.brand_name + '\u201d';
        submit.textContent = 'Save changes';
        cancel.hidden = false;
        brandInput.focus();
      },
      /** @param {ApiFailure} err */
      function (err) {
        C.say(status, err.message, 'error');
      },
    );
  }

  function save() {
    const prompts = lines(promptsInput.value);
    if (!brandInput.value.trim() || !domainInput.value.trim() || prompts.length === 0) {
      C.say(status, 'Enter the brand, its domain and at least one prompt.', 'error');
      const missing = [brandInput, domainInput].find(function (input) {
        return !input.value.trim();
      });
      (missing || promptsInput).focus();
      return Promise.resolve();
    }
    const body = {
      brand_name: brandInput.value.trim(),
      domain: domainInput.value.trim(),
      brand_aliases: lines(aliasesInput.value),
      target_country: countryInput.value,
      target_language: languageInput.value,
      ai_engine: engineInput.value,
      tracking_frequency: frequencyInput.value,
      prompts: prompts,
      competitors: competitorLines(competitorsInput.value),
    };
    const id = editing;
    const call =
      id === null
        ? C.api('POST', '/ai-visibility/projects', body)
        : C.api('PATCH', '/ai-visibility/projects/' + id, body);
    return call.then(
      /** @param {{ id?: number, project_id?: number }} data */
      function (data) {
        const saved = /** @type {number} */ (id === null ? data.id : data.project_id);
        resetForm();
        return loadProjects().then(function () {
          return showProject(saved).then(function () {
            C.say(
              status,
              id === null
                ? 'Project \u201c' +
                    body.brand_name +
                    '\u201d created: its first scan runs within minutes.'
                : 'Project \u201c' + body.brand_name + '\u201d saved.',
              'ok',
            );
          });
        });
      },
      /** @param {ApiFailure} err */
      function (err) {
        C.say(status, err.message, 'error');
      },
    );
  }

  /** @param {HTMLButtonElement} button */
  function projectAction(button) {
    const id = Number(button.getAttribute('data-id'));
    const label = button.getAttribute('data-label') || '';
    const action = button.getAttribute('data-ai-action');
    if (action === 'show') {
      showProject(id);
      return;
    }
    if (action === 'edit') {
      editProject(id);
      return;
    }
    if (
      !window.confirm(
        'Delete the AI-visibility project \u201c' +
          label +
          '\u201d with its scans and answers? This cannot be undone.',
      )
    )
      return;
    button.disabled = true;
    C.api('DELETE', '/ai-visibility/projects/' + id).then(
      function () {
        if (editing === id) resetForm();
        return loadProjects().then(function () {
          C.say(status, 'Project \u201c' + label + '\u201d deleted.', 'ok');
        });
      },
      /** @param {ApiFailure} err */
      function (err) {
        button.disabled = false;
        C.say(status, err.message, 'error');
      },
    );
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    C.whileSubmitting(form, save);
  });
  cancel.addEventListener('click', function () {
    resetForm();
  });
  projectsBody.addEventListener('click', function (event) {
    const button = C.clickedButton(event, 'button[data-ai-action]');
    if (button) projectAction(button);
  });
  loadProjects();
}
