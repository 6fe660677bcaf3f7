import type { MatchBucket } from './seo-data.schema';

const QUESTION_WORDS = new Set([
  'how',
  'what',
  'why',
  'when',
  'where',
  'who',
  'which',
  'can',
  'does',
  'do',
  'is',
  'are',
  'should',
  'will',
]);

/** Lower case, trimmed, inner whitespace collapsed: how keywords are compared and cached. */
export function normalizeKeyword(keyword: string): string {
  return keyword.trim().toLowerCase().replace(/\s+/g, ' ');
}

function words(s: string): string[] {
  return normalizeKeyword(s)
    .split(' ')
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((w) => w.length > 0);
}

/**
 * Our bucket of a related keyword (a choice, see docs/research.md): `question` when it
 * starts with a question word or ends with "?"; `similar` when it contains every word of
 * the seed; otherwise `related`.
 */
export function matchBucket(keyword: string, seed: string): MatchBucket {
  const kw = words(keyword);
  if (keyword.trim().endsWith('?') || (kw.length > 0 && QUESTION_WORDS.has(kw[0])))
    return 'question';
  const have = new Set(kw);
  const seedWords = words(seed);
  if (seedWords.length > 0 && seedWords.every((w) => have.has(w))) return 'similar';
  return 'related';
}
