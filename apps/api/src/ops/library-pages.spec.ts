import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  VIEWPORT_META,
  swaggerUiOptions,
  withViewportMeta,
  withoutOutsideLinks,
} from './library-pages';

/** @nestjs/swagger's own page builder (not exported: loaded from its file, for this test). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildSwaggerHTML } = require(
  join(dirname(require.resolve('@nestjs/swagger')), 'swagger-ui', 'swagger-ui.js'),
) as { buildSwaggerHTML(baseUrl: string, options: object): string };

/**
 * The amendments to the library-written pages, checked on the libraries' real HTML: if an
 * upgrade changes a template, these fail here rather than on an operator's phone or network.
 */
describe('library pages', () => {
  it('Swagger UI: one viewport meta tag, in the head after the charset; title and favicon from the options', () => {
    const html = withViewportMeta(
      buildSwaggerHTML(
        './docs/',
        swaggerUiOptions('API reference', '/assets/favicon.0123456789ab.svg'),
      ),
    );
    expect(html.split(VIEWPORT_META)).toHaveLength(2);
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toMatch(/<meta charset="UTF-8">\s*<meta name="viewport"/);
    expect(head).toContain('<title>API reference · SEO data API</title>');
    expect(head).toContain("<link rel='icon' href='/assets/favicon.0123456789ab.svg' />");
    expect(html).not.toContain('favicon-32x32.png');
    // Everything it loads is relative to /docs (swagger-ui-dist, served by the app).
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
    expect(withViewportMeta(html)).toBe(html);
  });

  it('a page without a charset tag gets the viewport at the start of its head', () => {
    expect(withViewportMeta('<html><head><title>x</title></head></html>')).toBe(
      `<html><head>\n  ${VIEWPORT_META}<title>x</title></head></html>`,
    );
  });

  it("Bull Board: its template's web-font links are dropped, its own files kept", () => {
    const ui = dirname(require.resolve('@bull-board/ui/package.json'));
    const template = readFileSync(join(ui, 'dist', 'index.ejs'), 'utf8');
    const html = withoutOutsideLinks(template);
    expect(html).not.toMatch(/<link[^>]*href=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/<script[^>]*src=["']?(https?:)?\/\//i);
    expect(html).toMatch(/<link href="static\/css\/main\.[0-9a-f]+\.css" rel="stylesheet">/);
    expect(html).toContain('<link rel="icon" type="image/svg+xml" id="fav-logo"');
    expect(html).toContain('<script defer src="static/js/main.');
  });

  it('drops absolute and protocol-relative links only', () => {
    const page = [
      '<link rel="preconnect" href="https://fonts.example">',
      "<link href='//cdn.example/a.css' rel=stylesheet>",
      '<link rel="stylesheet" href=http://x.example/b.css>',
      '<link rel="stylesheet" href="local.css">',
      '<a href="https://example.com">docs</a>',
    ].join('\n');
    expect(withoutOutsideLinks(page)).toBe(
      '<link rel="stylesheet" href="local.css">\n<a href="https://example.com">docs</a>',
    );
  });
});
