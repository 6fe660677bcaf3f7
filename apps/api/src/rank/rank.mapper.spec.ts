import { TRACKED_KEYWORD_MEMBERS } from './rank-keyword-json.sql';
import { positionChange, trackedKeywordView, trendOf } from './rank.mapper';
import { TrackedKeywordEntryRow } from './rank.repository';
import { TrackedKeywordSchema } from './rank.schema';

describe('rank mapping', () => {
  it('position_change is previous − current (positive = moved up), null when either is null', () => {
    expect(positionChange(8, 3)).toBe(5);
    expect(positionChange(3, 8)).toBe(-5);
    expect(positionChange(null, 3)).toBeNull();
    expect(positionChange(3, null)).toBeNull();
  });

  it('trend: first = oldest, latest = newest, best/worst ignore unranked checks', () => {
    const t = trendOf([
      { position: null },
      { position: 4 },
      { position: 12 },
      { position: null },
      { position: 7 },
    ]);
    expect(t).toEqual({ first: 7, latest: null, best: 4, worst: 12 });
  });

  it('trend: best and worst are null when never ranked; everything null without checks', () => {
    expect(trendOf([{ position: null }, { position: null }])).toEqual({
      first: null,
      latest: null,
      best: null,
      worst: null,
    });
    expect(trendOf([])).toEqual({ first: null, latest: null, best: null, worst: null });
  });

  it('a tracked keyword: the view, the SQL rendering and the schema list the same members in the same order', () => {
    const row: TrackedKeywordEntryRow = {
      id: 7,
      keyword: 'k',
      difficulty: null,
      search_volume: 10,
      cpc: '1.50',
      country: 'US',
      language: 'en',
      device: 'desktop',
      status: 'active',
      project_id: 3,
      project_domain: 'example.com',
      project_name: 'Example',
      latest_check_date: '2026-06-14',
      latest_position: 4,
      previous_position: 9,
      latest_landing_page: null,
      latest_gsc_clicks: 1,
      latest_gsc_impressions: 20,
      latest_gsc_ctr: 5,
      latest_local_pack: true,
      latest_featured_snippet: false,
      latest_ai_overview: null,
    };
    const view = trackedKeywordView(row);
    expect(Object.keys(view)).toEqual(TRACKED_KEYWORD_MEMBERS);
    expect(Object.keys(TrackedKeywordSchema.shape)).toEqual(TRACKED_KEYWORD_MEMBERS);
    expect(TrackedKeywordSchema.parse(view)).toEqual(view);
    expect(view).toMatchObject({ cpc: 1.5, position_change: 5, last_checked: '2026-06-14' });
  });
});
