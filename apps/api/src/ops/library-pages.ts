import type { UIConfig } from '@bull-board/api/typings/app';
import type { SwaggerCustomOptions } from '@nestjs/swagger';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * The two pages whose HTML a library writes: Swagger UI (/docs and /admin/docs, written by
 * @nestjs/swagger) and Bull Board (/admin/queues, @bull-board/ui's index.ejs). Both are
 * configured through their options where an option exists (title, favicon, CSS, theme). Two
 * things have no option, so the page's HTML is amended as it is sent (`amendHtml`):
 * Swagger UI's template has no viewport meta tag (a phone shows a shrunken desktop page), and
 * Bull Board's template links its web fonts from a font host on the internet (which fails
 * offline and tells that host the operator's address). Everything both pages load is served
 * by this app: Swagger UI from swagger-ui-dist, Bull Board from @bull-board/ui.
 */

export const VIEWPORT_META = '<meta name="viewport" content="width=device-width, initial-scale=1">';

/** The page's HTML with a viewport meta tag (after the charset, where the head starts). */
export function withViewportMeta(html: string): string {
  if (/<meta\s+name=["']?viewport["']?/i.test(html)) return html;
  const charset = /<meta\s+charset=["']?utf-8["']?\s*\/?>/i;
  if (charset.test(html)) return html.replace(charset, (tag) => `${tag}\n  ${VIEWPORT_META}`);
  return html.replace(/<head>/i, (tag) => `${tag}\n  ${VIEWPORT_META}`);
}

/**
 * The page's HTML without the `<link>` elements that load from another origin (an absolute
 * `http(s)://` or protocol-relative `//` href): stylesheets, preconnects, web fonts.
 */
export function withoutOutsideLinks(html: string): string {
  return html.replace(/<link\b[^>]*\bhref\s*=\s*["']?(?:https?:)?\/\/[^>]*>[ \t]*\r?\n?/gi, '');
}

/**
 * Express middleware that passes every HTML body the handlers after it send (`res.send` of a
 * string, as a text/html response; JSON, scripts and static files are left alone) through
 * `amend`. `pages`, when given, limits it to those paths below the mount point.
 */
export function amendHtml(amend: (html: string) => string, pages?: string[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    if ((req.method === 'GET' || req.method === 'HEAD') && (!pages || pages.includes(req.path))) {
      const send = res.send.bind(res);
      res.send = (body?: unknown) => {
        const type = String(res.getHeader('Content-Type') ?? 'text/html');
        return send(typeof body === 'string' && type.startsWith('text/html') ? amend(body) : body);
      };
    }
    next();
  };
}

/**
 * The CSP of the operator pages (/admin/queues, /admin/docs). Every script is this app's
 * file, and neither page is framed (`frame-ancestors 'none'`, and X-Frame-Options for older
 * browsers), so a same-site page cannot frame the queue board with the operator's cookie.
 * Styles may be inline (both libraries write `<style>` elements and style attributes), and
 * images may be `data:` (Swagger UI's icons); `base-uri 'self'`: Bull Board sets `<base>`.
 */
export const OPS_PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Express middleware setting the operator pages' headers on every answer below the mount
 * point (the pages, their files, their JSON, and the 401 and 303 of the operator sign-in):
 * the CSP above, no framing, no referrer leaving the page, not indexed.
 */
export function opsPageHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', OPS_PAGE_CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Robots-Tag', 'noindex, nofollow');
  next();
}

/** The paths, below its mount point, at which SwaggerModule serves the Swagger UI page. */
export const SWAGGER_UI_PAGES = ['/', '/index.html'];

/**
 * SwaggerModule.setup options of a Swagger UI page: its title, the site's favicon (served by
 * this app), and CSS for phones. `validatorUrl: 'none'`: Swagger UI never shows the online
 * validator's badge (an image from another host).
 */
export function swaggerUiOptions(title: string, faviconUrl: string): SwaggerCustomOptions {
  return {
    customSiteTitle: `${title} · SEO data API`,
    customfavIcon: faviconUrl,
    customCss: SWAGGER_PHONE_CSS,
    swaggerOptions: { validatorUrl: 'none' },
  };
}

/**
 * On a phone: narrower margins, and each response (status, description, example) stacked
 * rather than squeezed into a three-column table.
 */
const SWAGGER_PHONE_CSS = `
@media (max-width: 600px) {
  .swagger-ui .wrapper { padding: 0 12px; }
  .swagger-ui .opblock-section-header, .swagger-ui .opblock-description-wrapper,
  .swagger-ui .parameters-container, .swagger-ui .responses-inner { padding-left: 12px; padding-right: 12px; }
  .swagger-ui .responses-table .responses-header, .swagger-ui .response-col_links { display: none; }
  .swagger-ui .responses-table tr.response { display: flex; flex-direction: column; }
  .swagger-ui .responses-table td { padding: 4px 0; }
}
`;

/** System font stacks: the dashboard loads no web font. */
const SYSTEM_SANS =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const SYSTEM_MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';

/** Bull Board's uiConfig: its title, and system fonts through its theme tokens. */
export const QUEUE_DASHBOARD_UI: UIConfig = {
  boardTitle: 'SEO API queues',
  theme: {
    light: { 'font-sans': SYSTEM_SANS, 'font-mono': SYSTEM_MONO },
    dark: { 'font-sans': SYSTEM_SANS, 'font-mono': SYSTEM_MONO },
  },
};
