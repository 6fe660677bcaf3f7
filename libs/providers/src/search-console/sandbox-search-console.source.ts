import { Injectable } from '@nestjs/common';
import { seededRandom } from '@app/core';
import {
  SearchConsoleAccess,
  SearchConsolePage,
  SearchConsoleRow,
  SearchConsoleSource,
} from './search-console.port';

/**
 * The products the sandbox's queries are about (the demo account's outdoor store tracks 30
 * keywords made of them: the product and one prefixed form, apps/api/src/cli/demo-data.ts).
 */
export const SANDBOX_GSC_PRODUCTS = [
  'hiking boots',
  'trail running shoes',
  'waterproof jacket',
  'camping tent',
  'sleeping bag',
  'trekking poles',
  'down jacket',
  'hiking backpack',
  'rain pants',
  'merino socks',
  'headlamp',
  'water filter',
  'camp stove',
  'fleece jacket',
  'gaiters',
  'climbing harness',
  'insulated bottle',
  'ultralight tent',
  'bivy sack',
  'hiking sandals',
] as const;

/** The prefixes of the sandbox's queries (`best hiking boots`, ...). */
export const SANDBOX_GSC_MODIFIERS = ['best', 'cheap', 'women', 'men', 'review', 'sale'] as const;

/** Search Console's country codes the sandbox reports, and how often a query has impressions there. */
const COUNTRIES: ReadonlyArray<readonly [string, number]> = [
  ['usa', 0.85],
  ['gbr', 0.45],
  ['can', 0.1],
  ['aus', 0.1],
];
/** Google's device names and how often a query has impressions on each. */
const DEVICES: ReadonlyArray<readonly [string, number]> = [
  ['DESKTOP', 0.7],
  ['MOBILE', 0.75],
  ['TABLET', 0.15],
];

const slug = (s: string) => s.replace(/[^a-z0-9]+/g, '-');

/** The web host of a property: `sc-domain:x.com` → x.com, `https://www.x.com/` → www.x.com. */
function hostOf(siteUrl: string): string {
  if (siteUrl.startsWith('sc-domain:')) return siteUrl.slice('sc-domain:'.length);
  try {
    return new URL(siteUrl).host;
  } catch {
    return 'example.com';
  }
}

/**
 * The sandbox's Search Console (implements SearchConsoleSource; docs/gsc-sync.md): facts of
 * any site and day generated from the site URL, the day and each row's keys, so every pull
 * of a day answers the same rows (a re-pull replaces them with equal ones). 140 queries (20
 * products, bare and with 6 prefixes), each on its product page (every 3rd also on a
 * guide), in 4 countries and 3 devices where a seeded draw says it had impressions that
 * day: about 400 rows a day. Ordered by clicks, then keys, as Google pages them.
 * No network, no token: `accessFor` answers a placeholder.
 */
@Injectable()
export class SandboxSearchConsoleSource implements SearchConsoleSource {
  private readonly days = new Map<string, SearchConsoleRow[]>();

  query(
    _access: SearchConsoleAccess,
    siteUrl: string,
    day: string,
    startRow: number,
    rowLimit: number,
  ): Promise<SearchConsolePage> {
    return Promise.resolve({
      rows: this.rowsOf(siteUrl, day).slice(startRow, startRow + rowLimit),
    });
  }

  accessFor(connection: { id: number }): Promise<SearchConsoleAccess> {
    return Promise.resolve({ connectionId: connection.id, accessToken: 'sandbox' });
  }

  /** Every row of a site's day (the last few days asked are kept: paging asks a day again). */
  rowsOf(siteUrl: string, day: string): SearchConsoleRow[] {
    const key = `${siteUrl}|${day}`;
    let rows = this.days.get(key);
    if (!rows) {
      rows = generateDay(siteUrl, day);
      if (this.days.size >= 8) this.days.delete(this.days.keys().next().value!);
      this.days.set(key, rows);
    }
    return rows;
  }
}

function generateDay(siteUrl: string, day: string): SearchConsoleRow[] {
  const host = hostOf(siteUrl);
  const rows: SearchConsoleRow[] = [];
  SANDBOX_GSC_PRODUCTS.forEach((product, pi) => {
    const queries = [product, ...SANDBOX_GSC_MODIFIERS.map((m) => `${m} ${product}`)];
    queries.forEach((query, qi) => {
      const stable = seededRandom(`${siteUrl}|${query}`);
      const base = 1 + stable() * 25; // the query's usual position
      const volume = 30 + stable() * 500; // its usual daily impressions
      const pages = [`https://${host}/${slug(product)}`];
      if ((pi + qi) % 3 === 0) pages.push(`https://${host}/blog/${slug(product)}-guide`);
      const daily = seededRandom(`${siteUrl}|${query}|${day}`);
      for (const [pgi, page] of pages.entries()) {
        for (const [country, countryOdds] of COUNTRIES) {
          for (const [device, deviceOdds] of DEVICES) {
            if (daily() >= countryOdds * deviceOdds * (pgi === 0 ? 1 : 0.6)) continue;
            const position =
              Math.round(Math.max(1, base + pgi * 4 + (daily() - 0.5) * 6) * 10) / 10;
            const share = country === 'usa' ? 1 : 0.3;
            const impressions = Math.max(1, Math.round((volume * share * deviceOdds) / position));
            const clicks = Math.min(
              impressions,
              Math.round(impressions * Math.min(0.3, 0.3 / position) * daily() * 2),
            );
            rows.push({
              keys: [day, query, page, country, device],
              clicks,
              impressions,
              ctr: clicks / impressions,
              position,
            });
          }
        }
      }
    });
  });
  return rows.sort(
    (a, b) => b.clicks - a.clicks || (a.keys.join('\u0000') < b.keys.join('\u0000') ? -1 : 1),
  );
}
