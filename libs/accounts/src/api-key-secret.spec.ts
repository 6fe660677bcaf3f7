import { generateSecret, hashSecret, looksLikeKey } from './api-key-secret';

describe('API key secrets', () => {
  it('are high-entropy, recognizable, and stored only as a hash', () => {
    const a = generateSecret();
    const b = generateSecret();
    expect(a.key).not.toBe(b.key);
    expect(a.key).toMatch(/^seo_live_[A-Za-z0-9_-]{43}$/);
    expect(a.prefix).toBe(a.key.slice(0, 13));
    expect(a.hash).toBe(hashSecret(a.key));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash).not.toContain(a.key.slice(9));
    expect(looksLikeKey(a.key)).toBe(true);
    expect(looksLikeKey('seo_live_short')).toBe(false);
  });
});
