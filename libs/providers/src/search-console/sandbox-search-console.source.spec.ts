import { searchConsoleCountry } from '@app/core';
import {
  SANDBOX_GSC_MODIFIERS,
  SANDBOX_GSC_PRODUCTS,
  SandboxSearchConsoleSource,
} from '@app/providers';

const access = { connectionId: null, accessToken: 'sandbox' };

describe('sandbox Search Console source', () => {
  it('answers the same rows for a site and day every time, a few hundred a day, Google-shaped', async () => {
    const a = new SandboxSearchConsoleSource();
    const b = new SandboxSearchConsoleSource();
    const site = 'sc-domain:demo-outdoor.com';
    const day = (await a.query(access, site, '2026-06-13', 0, 25_000)).rows;
    expect((await b.query(access, site, '2026-06-13', 0, 25_000)).rows).toEqual(day);
    expect(day.length).toBeGreaterThan(200);
    expect(day.length).toBeLessThan(1000);
    const other = (await a.query(access, site, '2026-06-12', 0, 25_000)).rows;
    expect(other).not.toEqual(day);
    for (const r of day) {
      expect(r.keys[0]).toBe('2026-06-13');
      expect(r.keys[2]).toMatch(/^https:\/\/demo-outdoor\.com\//);
      expect(['usa', 'gbr', 'can', 'aus']).toContain(r.keys[3]);
      expect(['DESKTOP', 'MOBILE', 'TABLET']).toContain(r.keys[4]);
      expect(r.clicks).toBeLessThanOrEqual(r.impressions);
      expect(r.position).toBeGreaterThanOrEqual(1);
    }
    // Sorted by clicks, as Google pages them; pages are slices of that order.
    expect(day.map((r) => r.clicks)).toEqual([...day.map((r) => r.clicks)].sort((x, y) => y - x));
    const page2 = (await a.query(access, site, '2026-06-13', 100, 100)).rows;
    expect(page2).toEqual(day.slice(100, 200));
  });

  it("its queries include the demo store's tracked keywords (a product, and a prefixed one)", async () => {
    const rows = (
      await new SandboxSearchConsoleSource().query(
        access,
        'sc-domain:x.com',
        '2026-06-13',
        0,
        25_000,
      )
    ).rows;
    const queries = new Set(rows.map((r) => r.keys[1]));
    expect(queries.has(SANDBOX_GSC_PRODUCTS[0])).toBe(true);
    expect(queries.has(`${SANDBOX_GSC_MODIFIERS[4]} ${SANDBOX_GSC_PRODUCTS[4]}`)).toBe(true);
  });

  it("Search Console's country codes of alpha-2 codes", () => {
    expect(searchConsoleCountry('US')).toBe('usa');
    expect(searchConsoleCountry('gb')).toBe('gbr');
    expect(searchConsoleCountry('DE')).toBe('deu');
    expect(searchConsoleCountry('XX')).toBeNull();
  });
});
