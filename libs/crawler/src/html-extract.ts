import * as nodeModule from 'node:module';

type Htmlparser2 = typeof import('htmlparser2');
type ModuleBuiltin = typeof nodeModule;
/**
 * htmlparser2 12 is an ES module. Node ≥ 20.19 can require() it natively. Jest's CommonJS sandbox
 * replaces `require` and even `module.createRequire`, so the runtime's own loader is taken from
 * process.getBuiltinModule (Node ≥ 20.16) when available.
 */
export function loadHtmlparser2(): Htmlparser2 {
  const getBuiltin = (process as unknown as { getBuiltinModule?: (id: string) => unknown })
    .getBuiltinModule;
  const mod = getBuiltin ? (getBuiltin('node:module') as ModuleBuiltin) : nodeModule;
  return mod.createRequire(__filename)('htmlparser2') as Htmlparser2;
}
const { Parser } = loadHtmlparser2();

export interface ExtractedLink {
  href: string;
  nofollow: boolean;
}

export interface ExtractedHeading {
  level: number;
  text: string;
}

export interface ExtractedPage {
  title: string | null;
  metaDescription: string | null;
  /** Lowercased directives from <meta name="robots"> and <meta name="<bot>"> (all bots). */
  metaRobots: string[];
  lang: string | null;
  hasViewport: boolean;
  canonicalHref: string | null;
  baseHref: string | null;
  headings: ExtractedHeading[];
  links: ExtractedLink[];
  images: number;
  imagesWithoutAlt: number;
  /** Raw URLs of sub-resources (img, script, iframe, media, stylesheet, ...) in document order. */
  resources: string[];
  jsonLdTypes: string[];
  jsonLdInvalid: number;
  jsonLdHasAuthor: boolean;
  jsonLdHasDate: boolean;
  hasAuthorMeta: boolean;
  hasDateMeta: boolean;
  wordCount: number;
}

const SKIP_TEXT = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'head',
  'iframe',
  'object',
]);
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
const RESOURCE_ATTR: Record<string, string> = {
  img: 'src',
  script: 'src',
  iframe: 'src',
  video: 'src',
  audio: 'src',
  source: 'src',
  embed: 'src',
  track: 'src',
  input: 'src',
};
const AUTHOR_META = new Set([
  'author',
  'article:author',
  'dc.creator',
  'dcterms.creator',
  'parsely-author',
  'sailthru.author',
]);
const DATE_META = new Set([
  'article:published_time',
  'article:modified_time',
  'og:updated_time',
  'date',
  'dc.date',
  'dcterms.date',
  'dcterms.created',
  'dcterms.modified',
  'datepublished',
  'datemodified',
  'last-modified',
  'publish-date',
  'parsely-pub-date',
  'sailthru.date',
]);
const WORD = /[\p{L}\p{N}]+(?:['’\-.][\p{L}\p{N}]+)*/gu;

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function walkJsonLd(
  node: unknown,
  out: { types: Set<string>; author: boolean; date: boolean },
  depth = 0,
): void {
  if (depth > 20 || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) walkJsonLd(n, out, depth + 1);
    return;
  }
  const obj = node as Record<string, unknown>;
  const t = obj['@type'];
  for (const v of Array.isArray(t) ? t : [t]) if (typeof v === 'string' && v) out.types.add(v);
  if (obj.author != null || obj.creator != null) out.author = true;
  if (obj.datePublished != null || obj.dateModified != null || obj.dateCreated != null)
    out.date = true;
  for (const [k, v] of Object.entries(obj))
    if (k !== '@context' && typeof v === 'object') walkJsonLd(v, out, depth + 1);
}

/** Single streaming pass with htmlparser2 (tolerant of broken markup). */
export function extractPage(html: string): ExtractedPage {
  const page: ExtractedPage = {
    title: null,
    metaDescription: null,
    metaRobots: [],
    lang: null,
    hasViewport: false,
    canonicalHref: null,
    baseHref: null,
    headings: [],
    links: [],
    images: 0,
    imagesWithoutAlt: 0,
    resources: [],
    jsonLdTypes: [],
    jsonLdInvalid: 0,
    jsonLdHasAuthor: false,
    jsonLdHasDate: false,
    hasAuthorMeta: false,
    hasDateMeta: false,
    wordCount: 0,
  };
  const stack: string[] = [];
  let skipDepth = 0; // > 0 while inside an element whose text is not visible
  let svgDepth = 0;
  let titleText: string[] | null = null;
  let heading: { level: number; parts: string[] } | null = null;
  let jsonLd: string[] | null = null;
  let words = 0;
  let pending = ''; // text since the last tag boundary (entities may split text events)
  const ld = { types: new Set<string>(), author: false, date: false };

  const flushWords = () => {
    if (pending) {
      words += pending.match(WORD)?.length ?? 0;
      pending = '';
    }
  };

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        flushWords();
        if (heading) heading.parts.push(' ');
        if (!VOID.has(name)) stack.push(name);
        if (SKIP_TEXT.has(name) && !VOID.has(name)) skipDepth++;
        if (name === 'svg') svgDepth++;
        switch (name) {
          case 'html':
            if (page.lang === null && attrs.lang != null) page.lang = attrs.lang.trim() || null;
            break;
          case 'title':
            if (svgDepth === 0 && page.title === null && titleText === null) titleText = [];
            break;
          case 'base':
            if (page.baseHref === null && attrs.href) page.baseHref = attrs.href.trim();
            break;
          case 'meta': {
            const key = (attrs.name ?? attrs.property ?? attrs.itemprop ?? '').trim().toLowerCase();
            const content = attrs.content ?? '';
            if (key === 'description' && page.metaDescription === null)
              page.metaDescription = collapse(content);
            else if (key === 'viewport' && content.trim()) page.hasViewport = true;
            else if (key === 'robots' || key === 'googlebot' || key === 'bingbot') {
              for (const d of content.toLowerCase().split(','))
                if (d.trim()) page.metaRobots.push(d.trim());
            }
            if (AUTHOR_META.has(key) && content.trim()) page.hasAuthorMeta = true;
            if (DATE_META.has(key) && content.trim()) page.hasDateMeta = true;
            break;
          }
          case 'link': {
            const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/);
            const href = (attrs.href ?? '').trim();
            if (rel.includes('canonical') && page.canonicalHref === null && href)
              page.canonicalHref = href;
            if (rel.includes('author') && href) page.hasAuthorMeta = true;
            if (
              href &&
              (rel.includes('stylesheet') ||
                rel.includes('icon') ||
                rel.includes('preload') ||
                rel.includes('modulepreload'))
            ) {
              page.resources.push(href);
            }
            break;
          }
          case 'a':
            if (attrs.href != null) {
              const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/);
              page.links.push({ href: attrs.href, nofollow: rel.includes('nofollow') });
              if (rel.includes('author')) page.hasAuthorMeta = true;
            }
            break;
          case 'img':
            page.images++;
            if (attrs.alt === undefined) page.imagesWithoutAlt++;
            break;
          case 'time':
            if (attrs.datetime) page.hasDateMeta = true;
            break;
          case 'script':
            if ((attrs.type ?? '').trim().toLowerCase() === 'application/ld+json') jsonLd = [];
            break;
          default:
            if (/^h[1-6]$/.test(name) && svgDepth === 0)
              heading = { level: Number(name[1]), parts: [] };
        }
        const resAttr = RESOURCE_ATTR[name];
        if (resAttr && attrs[resAttr]) page.resources.push(attrs[resAttr].trim());
      },
      ontext(text) {
        if (titleText) titleText.push(text);
        if (jsonLd) jsonLd.push(text);
        if (heading) heading.parts.push(text);
        if (skipDepth === 0) pending += text;
      },
      onclosetag(name, implied) {
        flushWords();
        if (VOID.has(name)) return;
        // Pop up to and including the matching element (htmlparser2 reports implied closes too).
        const idx = stack.lastIndexOf(name);
        if (idx === -1) return;
        for (let i = stack.length - 1; i >= idx; i--) {
          const n = stack[i];
          if (SKIP_TEXT.has(n)) skipDepth = Math.max(0, skipDepth - 1);
          if (n === 'svg') svgDepth = Math.max(0, svgDepth - 1);
        }
        stack.length = idx;
        if (name === 'title' && titleText) {
          page.title = collapse(titleText.join(''));
          titleText = null;
        } else if (name === 'script' && jsonLd) {
          try {
            walkJsonLd(JSON.parse(jsonLd.join('')), ld);
          } catch {
            page.jsonLdInvalid++;
          }
          jsonLd = null;
        } else if (heading && name === `h${heading.level}`) {
          page.headings.push({ level: heading.level, text: collapse(heading.parts.join('')) });
          heading = null;
        }
        void implied;
      },
    },
    {
      decodeEntities: true,
      lowerCaseTags: true,
      lowerCaseAttributeNames: true,
      recognizeSelfClosing: false,
    },
  );
  parser.end(html);
  flushWords();
  if (titleText !== null) page.title = collapse((titleText as string[]).join(''));
  if (heading !== null) {
    const h = heading as { level: number; parts: string[] };
    page.headings.push({ level: h.level, text: collapse(h.parts.join('')) });
  }
  page.wordCount = words;
  page.jsonLdTypes = [...ld.types].sort();
  page.jsonLdHasAuthor = ld.author;
  page.jsonLdHasDate = ld.date;
  return page;
}
