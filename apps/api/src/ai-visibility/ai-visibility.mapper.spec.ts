import { scoreChange, shareOfVoice } from './ai-visibility.mapper';

describe('AI-visibility mapping', () => {
  it('brand_share_pct is the brand share of all brand + competitor mentions', () => {
    expect(shareOfVoice(30, 90)).toEqual({
      brand_mentions: 30,
      competitor_mentions: 90,
      total_mentions: 120,
      brand_share_pct: 25,
    });
    expect(shareOfVoice(1, 2).brand_share_pct).toBe(33.33);
  });

  it('brand_share_pct is null when no mentions exist on either side', () => {
    expect(shareOfVoice(0, 0).brand_share_pct).toBeNull();
    expect(shareOfVoice(0, 5).brand_share_pct).toBe(0);
  });

  it('score_change is null until there are two scores', () => {
    expect(scoreChange(61.5, null)).toBeNull();
    expect(scoreChange(null, null)).toBeNull();
    expect(scoreChange(61.5, 58.25)).toBe(3.25);
  });
});
