import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The API reference page at /docs (docs/decisions/0004-api-reference.md): one HTML page
 * written here from the public OpenAPI document at start-up. Each operation shows, beside its
 * description, parameters, answer and errors, its code samples (`x-codeSamples`: curl,
 * TypeScript, Python) and a "Try it" form that calls this origin with the key typed on the
 * page. The page loads one stylesheet and one script, both this app's (reference-assets.ts),
 * and nothing from another origin.
 */

type Json = Record<string, unknown>;
interface Sample {
  lang: string;
  label: string;
  source: string;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  example?: unknown;
  schema?: Json;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Json; example?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, Json> }>;
  'x-codeSamples'?: Sample[];
  'x-spec-extension'?: boolean;
}

/** The example call of an operation (its @Endpoint sample): the Try it form's first values. */
export interface TryCall {
  query?: Json;
  path?: Json;
  body?: unknown;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The little Markdown the document's descriptions use: paragraphs, **bold**, `code`, lists. */
export function markdown(text: string | undefined): string {
  if (!text) return '';
  const inline = (s: string): string =>
    escapeHtml(s)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  return text
    .split(/\n\s*\n/)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((l) => /^\s*[-*] /.test(l)))
        return `<ul>${lines.map((l) => `<li>${inline(l.replace(/^\s*[-*] /, ''))}</li>`).join('')}</ul>`;
      return `<p>${inline(block)}</p>`;
    })
    .join('\n');
}

function resolve(doc: OpenAPIObject, schema: Json | undefined): Json | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.split('/').pop() ?? '';
  return (doc.components?.schemas?.[name] as Json | undefined) ?? schema;
}

function refName(schema: Json | undefined): string | null {
  return typeof schema?.$ref === 'string' ? (schema.$ref.split('/').pop() ?? null) : null;
}

function typeOf(doc: OpenAPIObject, schema: Json | undefined): string {
  if (!schema) return 'any';
  const name = refName(schema);
  const s = resolve(doc, schema) ?? {};
  let t = typeof s.type === 'string' ? s.type : Array.isArray(s.anyOf) ? 'one of' : 'object';
  if (t === 'array') t = `array of ${typeOf(doc, s.items as Json)}`;
  if (Array.isArray(s.enum)) t += ` (${s.enum.map((v) => JSON.stringify(v)).join(', ')})`;
  if (s.nullable) t += ', or null';
  return name && t === 'object' ? name : t;
}

/** The members of an answer schema, nested as lists (three levels deep at most). */
function outline(doc: OpenAPIObject, schema: Json | undefined, depth = 0): string {
  let s = resolve(doc, schema);
  if (s?.type === 'array') s = resolve(doc, s.items as Json);
  if (Array.isArray(s?.allOf)) {
    const merged: Json = { properties: {}, required: [] };
    for (const part of s.allOf as Json[]) {
      const p = resolve(doc, part) ?? {};
      Object.assign(merged.properties as Json, p.properties ?? {});
      (merged.required as string[]).push(...((p.required as string[]) ?? []));
    }
    s = merged;
  }
  const props = (s?.properties ?? {}) as Record<string, Json>;
  const names = Object.keys(props);
  if (!names.length || depth > 2) return '';
  const required = new Set((s?.required as string[]) ?? []);
  return `<ul class="members">${names
    .map((n) => {
      const p = props[n];
      const desc = resolve(doc, p)?.description;
      return `<li><code>${escapeHtml(n)}</code> <span class="type">${escapeHtml(typeOf(doc, p))}${
        required.has(n) ? '' : ', optional'
      }</span>${desc ? ` <span class="desc">${escapeHtml(String(desc))}</span>` : ''}${outline(doc, p, depth + 1)}</li>`;
    })
    .join('')}</ul>`;
}

function pretty(value: unknown): string {
  return escapeHtml(JSON.stringify(value, null, 2));
}

function parametersTable(doc: OpenAPIObject, params: Parameter[]): string {
  if (!params.length) return '';
  const rows = params
    .map(
      (p) =>
        `<tr><th scope="row"><code>${escapeHtml(p.name)}</code>${p.required ? ' <span class="req">required</span>' : ''}</th><td>${escapeHtml(p.in)}</td><td>${escapeHtml(typeOf(doc, p.schema))}</td><td>${markdown(p.description)}</td></tr>`,
    )
    .join('');
  return `<h3>Parameters</h3><div class="scroll"><table><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Description</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function responses(doc: OpenAPIObject, op: Operation): string {
  const out: string[] = ['<h3>Answers</h3>'];
  for (const [status, r] of Object.entries(op.responses ?? {})) {
    const media = r.content?.['application/json'] as
      | {
          schema?: Json;
          example?: unknown;
          examples?: Record<string, { summary?: string; value?: unknown }>;
        }
      | undefined;
    const ok = status.startsWith('2');
    const parts: string[] = [];
    if (media?.example !== undefined)
      parts.push(
        `<p class="ex-title">Example</p><pre tabindex="0"><code>${pretty(media.example)}</code></pre>`,
      );
    for (const [name, ex] of Object.entries(media?.examples ?? {}))
      parts.push(
        `<p class="ex-title">${escapeHtml(ex.summary ?? name)}</p><pre tabindex="0"><code>${pretty(ex.value)}</code></pre>`,
      );
    if (ok && media?.schema)
      parts.push(
        `<p class="ex-title">Members of <code>${escapeHtml(refName(media.schema) ?? 'the answer')}</code></p>${outline(doc, media.schema)}`,
      );
    out.push(
      `<details${ok ? ' open' : ''}><summary><span class="status s${status[0]}">${escapeHtml(status)}</span> ${escapeHtml(r.description ?? '')}</summary>${parts.join('')}</details>`,
    );
  }
  return out.join('');
}

function tryForm(method: string, path: string, op: Operation, id: string, call: TryCall): string {
  const fields = (op.parameters ?? [])
    .filter((p) => p.in === 'path' || p.in === 'query')
    .map((p) => {
      const v = (p.in === 'path' ? call.path : call.query)?.[p.name];
      const fid = `${id}-${p.in}-${p.name}`;
      return `<div class="field"><label for="${fid}">${escapeHtml(p.name)}${p.required ? ' (required)' : ''}</label><input id="${fid}" name="${escapeHtml(p.name)}" data-in="${p.in}" value="${v === undefined ? '' : escapeHtml(String(v))}"${p.required ? ' required' : ''}></div>`;
    })
    .join('');
  const body =
    op.requestBody !== undefined
      ? `<div class="field"><label for="${id}-body">JSON body</label><textarea id="${id}-body" name="body" rows="6" spellcheck="false">${pretty(call.body ?? {})}</textarea></div>`
      : '';
  return `<form class="try" data-method="${method.toUpperCase()}" data-path="${escapeHtml(path)}"><h3>Try it</h3>${fields}${body}<button type="submit">Send ${method.toUpperCase()} request</button><div class="result" role="status" aria-live="polite"></div></form>`;
}

function samples(list: Sample[], id: string): string {
  if (!list.length) return '';
  const tabs = list
    .map(
      (s, i) =>
        `<button type="button" role="tab" id="${id}-tab-${i}" aria-controls="${id}-sample-${i}" aria-selected="${i === 0}"${i === 0 ? '' : ' tabindex="-1"'}>${escapeHtml(s.label.replace(/ \(.*\)$/, ''))}</button>`,
    )
    .join('');
  const panels = list
    .map(
      (s, i) =>
        `<div role="tabpanel" id="${id}-sample-${i}" aria-labelledby="${id}-tab-${i}" class="sample" data-lang="${escapeHtml(s.lang)}"${i === 0 ? '' : ' hidden'}><p class="sample-label">${escapeHtml(s.label)}</p><pre tabindex="0"><code>${escapeHtml(s.source)}</code></pre><button type="button" class="copy">Copy</button></div>`,
    )
    .join('');
  return `<h3 class="samples-title">Code samples</h3><div role="tablist" aria-label="Sample language">${tabs}</div>${panels}`;
}

function operationId(op: Operation, method: string, path: string): string {
  return op.operationId ?? `${method}-${path.replace(/[^a-z0-9]+/gi, '-')}`;
}

export interface ReferenceAssets {
  css: string;
  js: string;
  favicon: string;
}

/** The whole page. */
export function referencePage(
  doc: OpenAPIObject,
  assets: ReferenceAssets,
  calls: ReadonlyMap<string, TryCall>,
): string {
  const ops: Array<{ method: string; path: string; op: Operation; id: string }> = [];
  for (const [path, item] of Object.entries(doc.paths))
    for (const method of METHODS) {
      const op = (item as Record<string, Operation | undefined>)[method];
      if (op) ops.push({ method, path, op, id: operationId(op, method, path) });
    }
  const nav = ops
    .map(
      ({ method, path, op, id }) =>
        `<li><a href="#${id}"><span class="m ${method}">${method.toUpperCase()}</span> <span>${escapeHtml(op.summary ?? path)}</span></a></li>`,
    )
    .join('');
  const sections = ops
    .map(({ method, path, op, id }) => {
      const body = op.requestBody?.content?.['application/json'];
      const bodyName = refName(body?.schema);
      return `<section class="op" id="${id}" aria-labelledby="${id}-h">
<div class="op-doc">
<h2 id="${id}-h"><span class="m ${method}">${method.toUpperCase()}</span> <code class="path">${escapeHtml(path)}</code></h2>
<p class="summary">${escapeHtml(op.summary ?? '')}${op['x-spec-extension'] ? ' <span class="ext">extension of the spec</span>' : ''} <span class="opid">${escapeHtml(id)}</span></p>
${markdown(op.description)}
${parametersTable(doc, op.parameters ?? [])}
${body ? `<h3>Request body${bodyName ? ` <code>${escapeHtml(bodyName)}</code>` : ''}</h3>${outline(doc, body.schema)}` : ''}
${responses(doc, op)}
</div>
<div class="op-side">
${samples(op['x-codeSamples'] ?? [], id)}
${tryForm(method, path, op, id, calls.get(id) ?? {})}
</div>
</section>`;
    })
    .join('\n');
  const title = `${doc.info.title} ${doc.info.version}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · SEO data API</title>
<meta name="description" content="Reference of the search-marketing data API: every operation with curl, TypeScript and Python samples, and a form to try each call.">
<link rel="icon" href="${escapeHtml(assets.favicon)}">
<link rel="stylesheet" href="${escapeHtml(assets.css)}">
<script src="${escapeHtml(assets.js)}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to the operations</a>
<header class="top"><p class="brand"><a href="/">SEO data API</a></p><p class="links"><a href="/docs/openapi.json">OpenAPI (JSON)</a> <a href="/docs/openapi.yaml">YAML</a></p></header>
<div class="layout">
<nav class="toc" aria-label="Operations"><details><summary>Operations</summary><ul>${nav}</ul></details></nav>
<main id="main">
<h1>${escapeHtml(title)}</h1>
<div class="intro">${markdown(doc.info.description)}</div>
<section class="key" aria-labelledby="key-h"><h2 id="key-h">Your API key for “Try it”</h2>
<p>The forms below send real requests to this service (they are billed like any call). The key stays in this tab only.</p>
<div class="field"><label for="api-key">API key</label><input id="api-key" type="password" autocomplete="off" placeholder="seo_live_…"></div></section>
${sections}
</main>
</div>
</body>
</html>
`;
}
