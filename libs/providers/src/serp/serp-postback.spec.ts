import { gzipSync } from 'node:zlib';
import {
  SERP_POSTBACK_PATH,
  gunzipPostback,
  postbackTask,
  postbackToken,
  postbackTokenMatches,
  postbackUrl,
} from './serp-postback';

const SECRET = 'k'.repeat(32);

describe('SERP postbacks', () => {
  it('a token per tag: 43 base64url characters, another tag or secret does not match', () => {
    const token = postbackToken(SECRET, 'rk:1:2026-09-01:1');
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(postbackTokenMatches(SECRET, 'rk:1:2026-09-01:1', token)).toBe(true);
    expect(postbackTokenMatches(SECRET, 'rk:1:2026-09-01:2', token)).toBe(false);
    expect(postbackTokenMatches('j'.repeat(32), 'rk:1:2026-09-01:1', token)).toBe(false);
    expect(postbackTokenMatches(SECRET, 'rk:1:2026-09-01:1', token.slice(1))).toBe(false);
    expect(postbackTokenMatches(SECRET, 'rk:1:2026-09-01:1', '')).toBe(false);
  });

  it('the URL: $id left for the provider, the tag encoded, the token', () => {
    const url = postbackUrl('https://api.example.com', SECRET, 'rk:7:2026-09-01:1');
    expect(url).toBe(
      `https://api.example.com${SERP_POSTBACK_PATH}?id=$id&tag=rk%3A7%3A2026-09-01%3A1&token=${postbackToken(SECRET, 'rk:7:2026-09-01:1')}`,
    );
  });

  it('gunzip: a body that is not gzip, corrupt gzip, and a bomb past the cap', async () => {
    expect(await gunzipPostback(Buffer.from('{"tasks":[]}'))).toEqual({
      ok: false,
      problem: 'not_gzip',
    });
    expect(await gunzipPostback(Buffer.from([0x1f, 0x8b, 1, 2, 3]))).toMatchObject({
      ok: false,
      problem: 'corrupt',
    });
    const bomb = gzipSync(Buffer.alloc(2 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(10_000);
    expect(await gunzipPostback(bomb, 1024 * 1024)).toEqual({ ok: false, problem: 'too_large' });
    expect(await gunzipPostback(gzipSync('{"a":1}'))).toEqual({ ok: true, text: '{"a":1}' });
  });

  it('the body is read as task_get’s envelope: one task, its id, tag and answer', () => {
    const task = (extra: Record<string, unknown>) =>
      JSON.stringify({
        status_code: 20000,
        tasks: [{ id: 't1', status_code: 20000, data: { tag: 'rk:1:2026-09-01:1' }, ...extra }],
      });
    expect(
      postbackTask(task({ result: [{ datetime: '2026-09-01 06:00:00 +00:00', items: [] }] })),
    ).toEqual({
      ok: true,
      task: {
        id: 't1',
        tag: 'rk:1:2026-09-01:1',
        answer: { kind: 'done', result: { datetime: '2026-09-01 06:00:00 +00:00', items: [] } },
      },
    });
    expect(postbackTask(task({ status_code: 40102, result: null }))).toMatchObject({
      ok: true,
      task: { answer: { kind: 'no_results' } },
    });
    expect(postbackTask(task({ status_code: 40501, result: null }))).toMatchObject({
      ok: true,
      task: { answer: { kind: 'refused', code: 40501 } },
    });
    for (const bad of [
      'not json',
      'null',
      '{"tasks":[]}',
      '{"tasks":[{"status_code":20000}]}',
      '{"tasks":[{"id":"t1"}]}',
      '{"tasks":[{"id":"t1","status_code":20000,"result":{}}]}',
      JSON.stringify({
        tasks: [
          { id: 'a', status_code: 20000 },
          { id: 'b', status_code: 20000 },
        ],
      }),
    ])
      expect(postbackTask(bad)).toMatchObject({ ok: false });
  });
});
