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

interface ExtractedLink {
  href: string;
  nofollow: boolean;
}

interface ExtractedHeading {
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
  /** Images (src and srcset), scripts and stylesheets whose availability is checked (raw URLs). */
  checkedResources: ExtractedResource[];
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
export type ResourceKind = 'image' | 'script' | 'stylesheet';
export interface ExtractedResource {
  url: string;
  kind: ResourceKind;
}

/** The URLs of a srcset attribute ("a.png 1x, b.png 2x"): each candidate's first token. */
export function srcsetUrls(srcset: string): string[] {
  return srcset
    .split(/,\s+|,(?=\S+\s)/)
    .map((c) => c.trim().split(/\s+/)[0])
    .filter((u): u is string => !!u && !u.startsWith('data:'));
}

function pushChecked(page: ExtractedPage, url: string | undefined, kind: ResourceKind): void {
  const u = (url ?? '').trim();
  if (u && !u.startsWith('data:')) page.checkedResources.push({ url: u, kind });
}

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

type Attributes = Record<string, string>;

/** A page with nothing read yet. */
function emptyPage(): ExtractedPage {
  return {
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
    checkedResources: [],
    jsonLdTypes: [],
    jsonLdInvalid: 0,
    jsonLdHasAuthor: false,
    jsonLdHasDate: false,
    hasAuthorMeta: false,
    hasDateMeta: false,
    wordCount: 0,
  };
}

/** <meta>: description, viewport, robots directives, author and date hints. */
function readMeta(page: ExtractedPage, attrs: Attributes): void {
  const key = (attrs.name ?? attrs.property ?? attrs.itemprop ?? '').trim().toLowerCase();
  const content = attrs.content ?? '';
  if (key === 'description' && page.metaDescription === null)
    page.metaDescription = collapse(content);
  else if (key === 'viewport' && content.trim()) page.hasViewport = true;
  else if (key === 'robots' || key === 'googlebot' || key === 'bingbot') {
    for (const d of content.toLowerCase().split(',')) if (d.trim()) page.metaRobots.push(d.trim());
  }
  if (AUTHOR_META.has(key) && content.trim()) page.hasAuthorMeta = true;
  if (DATE_META.has(key) && content.trim()) page.hasDateMeta = true;
}

/** <link>: the canonical, an author link, and stylesheet/icon/preload resources. */
function readLink(page: ExtractedPage, attrs: Attributes): void {
  const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/);
  const href = (attrs.href ?? '').trim();
  if (rel.includes('canonical') && page.canonicalHref === null && href) page.canonicalHref = href;
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
  if (href && rel.includes('stylesheet')) pushChecked(page, href, 'stylesheet');
}

/** <a>: a link (nofollow or not) and an author hint; anchors without href are not links. */
function readAnchor(page: ExtractedPage, attrs: Attributes): void {
  if (attrs.href == null) return;
  const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/);
  page.links.push({ href: attrs.href, nofollow: rel.includes('nofollow') });
  if (rel.includes('author')) page.hasAuthorMeta = true;
}

/** The state of one streaming pass: the page being filled and the element whose text is read. */
class PageExtraction {
  readonly page = emptyPage();
  /** Open (non-void) elements, innermost last. */
  private readonly stack: string[] = [];
  private skipDepth = 0; // > 0 while inside an element whose text is not visible
  private svgDepth = 0;
  private titleText: string[] | null = null;
  private heading: { level: number; parts: string[] } | null = null;
  private jsonLd: string[] | null = null;
  private words = 0;
  private pending = ''; // text since the last tag boundary (entities may split text events)
  private readonly ld = { types: new Set<string>(), author: false, date: false };

  /** Counts the words of the visible text since the last tag boundary. */
  private flushWords(): void {
    if (this.pending) {
      this.words += this.pending.match(WORD)?.length ?? 0;
      this.pending = '';
    }
  }

  onOpenTag(name: string, attrs: Attributes): void {
    this.flushWords();
    if (this.heading) this.heading.parts.push(' ');
    if (!VOID.has(name)) this.stack.push(name);
    if (SKIP_TEXT.has(name) && !VOID.has(name)) this.skipDepth++;
    if (name === 'svg') this.svgDepth++;
    this.readElement(name, attrs);
    const resAttr = RESOURCE_ATTR[name];
    if (resAttr && attrs[resAttr]) this.page.resources.push(attrs[resAttr].trim());
    if (name === 'script') pushChecked(this.page, attrs.src, 'script');
    if (name === 'img') {
      pushChecked(this.page, attrs.src, 'image');
      for (const u of srcsetUrls(attrs.srcset ?? '')) pushChecked(this.page, u, 'image');
    }
  }

  /** What an opening tag tells by its name and attributes (or the text capture it starts). */
  private readElement(name: string, attrs: Attributes): void {
    const page = this.page;
    switch (name) {
      case 'html':
        if (page.lang === null && attrs.lang != null) page.lang = attrs.lang.trim() || null;
        break;
      case 'title':
        if (this.svgDepth === 0 && page.title === null && this.titleText === null)
          this.titleText = [];
        break;
      case 'base':
        if (page.baseHref === null && attrs.href) page.baseHref = attrs.href.trim();
        break;
      case 'meta':
        readMeta(page, attrs);
        break;
      case 'link':
        readLink(page, attrs);
        break;
      case 'a':
        readAnchor(page, attrs);
        break;
      case 'img':
        page.images++;
        if (attrs.alt === undefined) page.imagesWithoutAlt++;
        break;
      case 'time':
        if (attrs.datetime) page.hasDateMeta = true;
        break;
      case 'script':
        if ((attrs.type ?? '').trim().toLowerCase() === 'application/ld+json') this.jsonLd = [];
        break;
      default:
        if (/^h[1-6]$/.test(name) && this.svgDepth === 0)
          this.heading = { level: Number(name[1]), parts: [] };
    }
  }

  onText(text: string): void {
    if (this.titleText) this.titleText.push(text);
    if (this.jsonLd) this.jsonLd.push(text);
    if (this.heading) this.heading.parts.push(text);
    if (this.skipDepth === 0) this.pending += text;
  }

  onCloseTag(name: string): void {
    this.flushWords();
    if (VOID.has(name)) return;
    if (!this.popTo(name)) return;
    this.endCapture(name);
  }

  /**
   * Pops up to and including the innermost open `name` (htmlparser2 reports implied closes
   * too), leaving hidden and svg elements; false when no such element is open.
   */
  private popTo(name: string): boolean {
    const idx = this.stack.lastIndexOf(name);
    if (idx === -1) return false;
    for (let i = this.stack.length - 1; i >= idx; i--) {
      const n = this.stack[i];
      if (SKIP_TEXT.has(n)) this.skipDepth = Math.max(0, this.skipDepth - 1);
      if (n === 'svg') this.svgDepth = Math.max(0, this.svgDepth - 1);
    }
    this.stack.length = idx;
    return true;
  }

  /** Ends the title, JSON-LD block or heading that the closing tag `name` closes. */
  private endCapture(name: string): void {
    if (name === 'title' && this.titleText) {
      this.page.title = collapse(this.titleText.join(''));
      this.titleText = null;
    } else if (name === 'script' && this.jsonLd) {
      try {
        walkJsonLd(JSON.parse(this.jsonLd.join('')), this.ld);
      } catch {
        this.page.jsonLdInvalid++;
      }
      this.jsonLd = null;
    } else if (this.heading && name === `h${this.heading.level}`) {
      this.page.headings.push({
        level: this.heading.level,
        text: collapse(this.heading.parts.join('')),
      });
      this.heading = null;
    }
  }

  /** After the last chunk: keeps an unclosed title or heading, and sets the totals. */
  finish(): ExtractedPage {
    const page = this.page;
    this.flushWords();
    if (this.titleText !== null) page.title = collapse(this.titleText.join(''));
    if (this.heading !== null) {
      page.headings.push({
        level: this.heading.level,
        text: collapse(this.heading.parts.join('')),
      });
    }
    page.wordCount = this.words;
    page.jsonLdTypes = [...this.ld.types].sort();
    page.jsonLdHasAuthor = this.ld.author;
    page.jsonLdHasDate = this.ld.date;
    return page;
  }
}

/** Single streaming pass with htmlparser2 (tolerant of broken markup). */
export function extractPage(html: string): ExtractedPage {
  const extraction = new PageExtraction();
  const parser = new Parser(
    {
      onopentag: (name, attrs) => extraction.onOpenTag(name, attrs),
      ontext: (text) => extraction.onText(text),
      onclosetag: (name) => extraction.onCloseTag(name),
    },
    {
      decodeEntities: true,
      lowerCaseTags: true,
      lowerCaseAttributeNames: true,
      recognizeSelfClosing: false,
    },
  );
  parser.end(html);
  return extraction.finish();
}
