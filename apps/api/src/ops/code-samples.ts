/**
 * The code samples of each public operation in /docs (`x-codeSamples`, which the UI and
 * most OpenAPI renderers show): curl, TypeScript with the typed client (@seo-api/client) and
 * Python with its standard library only. Each reads the key from SEO_API_KEY and calls the
 * service that serves the document. test/client/code-samples.e2e-spec.ts runs every one.
 */
import type { SampleCall } from '@app/gateway';

/**
 * The typed client's package name. Kept out of an import-shaped literal: the build's path
 * rewriting (tsc-alias) would otherwise turn the sample's import into a relative path.
 */
const CLIENT_PACKAGE = '@seo-api/client';

interface CodeSample {
  lang: 'Shell' | 'TypeScript' | 'Python';
  label: string;
  source: string;
}

function urlOf(baseUrl: string, path: string, call: SampleCall): string {
  let url = `${baseUrl}${path}`;
  for (const [name, value] of Object.entries(call.path ?? {}))
    url = url.replace(`{${name}}`, encodeURIComponent(value));
  const query = new URLSearchParams(
    Object.entries(call.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  return query ? `${url}?${query}` : url;
}

function curl(method: string, url: string, body: unknown): string {
  const lines = [
    `curl -sS --fail-with-body${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} "${url}"`,
    '  -H "Authorization: Bearer $SEO_API_KEY"',
  ];
  if (body !== undefined)
    lines.push(
      '  -H "Content-Type: application/json"',
      `  -d '${JSON.stringify(body).replace(/'/g, "'\\''")}'`,
    );
  return lines.join(' \\\n');
}

/**
 * The TypeScript sample: the call in a try block; an error answer (the client's SeoApiError)
 * is printed with its HTTP status, code and message, and the process exits 1.
 */
function typescript(baseUrl: string, call: SampleCall): string {
  return [
    `import { SeoApiClient, SeoApiError } from '${CLIENT_PACKAGE}';`,
    '',
    `const client = new SeoApiClient({ apiKey: process.env.SEO_API_KEY!, baseUrl: ${JSON.stringify(baseUrl)} });`,
    'try {',
    ...call.typescript.split('\n').map((line) => `  ${line}`),
    '} catch (err) {',
    '  if (!(err instanceof SeoApiError)) throw err;',
    '  console.error(`${err.status} ${err.code}: ${err.message}`);',
    '  process.exitCode = 1;',
    '}',
  ].join('\n');
}

/** A Python literal of a JSON value (dicts, lists, strings, numbers, booleans, None). */
function python(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (Array.isArray(value)) return `[${value.map(python).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${JSON.stringify(k)}: ${python(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

function pythonSample(method: string, url: string, call: SampleCall): string {
  const headers = ['"Authorization": "Bearer " + os.environ["SEO_API_KEY"]'];
  const args = [`    ${JSON.stringify(url)},`];
  if (call.body !== undefined) {
    headers.push('"Content-Type": "application/json"');
    args.push(`    data=json.dumps(${python(call.body)}).encode(),`);
  }
  args.push(`    headers={${headers.join(', ')}},`);
  if (method !== 'get') args.push(`    method=${JSON.stringify(method.toUpperCase())},`);
  // An error answer raises HTTPError, whose body is the API's envelope: its code and message
  // are printed (not urllib's bare "HTTP Error 404") and the script exits 1.
  return [
    'import json',
    'import os',
    'import urllib.error',
    'import urllib.request',
    '',
    'request = urllib.request.Request(',
    ...args,
    ')',
    'try:',
    '    with urllib.request.urlopen(request) as response:',
    '        answer = json.load(response)',
    'except urllib.error.HTTPError as err:',
    '    error = json.load(err).get("error", {})',
    "    raise SystemExit(f\"{err.code} {error.get('code')}: {error.get('message')}\")",
    `print(${call.pythonPrint})`,
  ].join('\n');
}

/** The three samples of one operation against `baseUrl`. */
export function codeSamples(
  method: string,
  path: string,
  baseUrl: string,
  call: SampleCall,
): CodeSample[] {
  const url = urlOf(baseUrl, path, call);
  return [
    { lang: 'Shell', label: 'curl', source: curl(method, url, call.body) },
    {
      lang: 'TypeScript',
      label: 'TypeScript (@seo-api/client)',
      source: typescript(baseUrl, call),
    },
    { lang: 'Python', label: 'Python (standard library)', source: pythonSample(method, url, call) },
  ];
}
