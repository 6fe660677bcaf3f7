import { BacklinkProfileSchema, KeywordResearchSchema } from '../seo-data.schema';
import { SandboxProvider } from './sandbox.provider';

describe('SandboxProvider', () => {
  const p = new SandboxProvider();

  it('is deterministic per request and announces itself as sandbox', async () => {
    expect(p.name).toBe('sandbox');
    const a = await p.backlinkProfile({ domain: 'example.com', page: 1, limit: 5 });
    const b = await p.backlinkProfile({ domain: 'example.com', page: 1, limit: 5 });
    expect(a).toEqual(b);
    const k1 = await p.keywordResearch({
      keyword: 'shoes',
      locationCode: 2840,
      upstreamLanguage: 'en',
      limit: 12,
    });
    const k2 = await p.keywordResearch({
      keyword: 'shoes',
      locationCode: 2840,
      upstreamLanguage: 'en',
      limit: 12,
    });
    expect(k1).toEqual(k2);
    expect(k1.related_keywords).toHaveLength(12);
    expect(k1.overview.trend).toHaveLength(12);
    for (const row of k1.related_keywords) expect(row.related.length).toBeLessThanOrEqual(8);
  });

  it('pages through a fixed total', async () => {
    const first = await p.backlinkProfile({ domain: 'example.com', page: 1, limit: 200 });
    const total = first.total_backlinks!;
    const last = await p.backlinkProfile({
      domain: 'example.com',
      page: Math.ceil(total / 200) + 1,
      limit: 200,
    });
    expect(last.backlinks).toEqual([]);
    for (const b of first.backlinks) {
      expect(b.lost_date === null || b.is_lost === 1).toBe(true);
      expect(b.first_seen).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
  });

  it('answers in the schemas the types come from (every member, nothing more)', async () => {
    const profile = await p.backlinkProfile({ domain: 'example.com', page: 1, limit: 50 });
    expect(profile.backlinks).toHaveLength(50);
    expect(BacklinkProfileSchema.parse(profile)).toEqual(profile);
    const research = await p.keywordResearch({
      keyword: 'shoes',
      locationCode: 2840,
      upstreamLanguage: 'en',
      limit: 20,
    });
    // The API adds the market's codes; everything else is the provider's.
    const data = { ...research, location_code: 2840, language_code: 'en' };
    expect(KeywordResearchSchema.parse(data)).toEqual(data);
  });
});
