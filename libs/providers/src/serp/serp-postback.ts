import { createHmac, timingSafeEqual } from 'node:crypto';
import { gunzip } from 'node:zlib';
import type { DfsTask } from '../dataforseo/dataforseo.types';
import { serpTaskAnswer } from './dataforseo-serp.provider';
import type { SerpTaskAnswer } from './serp-provider';
import type { DfsSerpResult } from './serp.types';

/**
 * Postbacks of the SERP standard queue (collectors-wire.md §1.4; docs/rank-collection.md,
 * "Postbacks"): a task posted with `postback_url` and `postback_data: "advanced"` is POSTed
 * back, gzip-compressed, in task_get's envelope when it completes, and needs no task_get.
 *
 * The URL carries the task's tag and a token: HMAC-SHA256 of the tag under
 * RANK_POSTBACK_SECRET. Each task has its own token (a URL seen at the provider forges no
 * other task's result), and nothing is stored: the receiver recomputes it from the tag.
 */
export const SERP_POSTBACK_PATH = '/collect/dataforseo/serp/postback';

/** The body's largest size once decompressed (a SERP of 700 results is a few MB). */
export const POSTBACK_MAX_BYTES = 16 * 1024 * 1024;
/** The body's largest size as sent (gzip shrinks a SERP about ten-fold). */
export const POSTBACK_MAX_COMPRESSED_BYTES = 4 * 1024 * 1024;

/** The token of a task's tag: base64url HMAC-SHA256 under the deployment's secret (43 characters). */
export function postbackToken(secret: string, tag: string): string {
  return createHmac('sha256', secret).update(`serp-postback:${tag}`).digest('base64url');
}

/** Whether `token` is the tag's (compared in constant time). */
export function postbackTokenMatches(secret: string, tag: string, token: string): boolean {
  const expected = Buffer.from(postbackToken(secret, tag));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The `postback_url` of a task: `<base>/collect/dataforseo/serp/postback?id=$id&tag=…&token=…`
 * (`$id` is replaced by the provider with the task's id).
 */
export function postbackUrl(baseUrl: string, secret: string, tag: string): string {
  const q = `tag=${encodeURIComponent(tag)}&token=${postbackToken(secret, tag)}`;
  return `${baseUrl}${SERP_POSTBACK_PATH}?id=$id&${q}`;
}

export type PostbackBodyError =
  { problem: 'not_gzip' } | { problem: 'too_large' } | { problem: 'corrupt'; message: string };

const GZIP_MAGIC = [0x1f, 0x8b];

/** True when the bytes start like a gzip member (a body sent without Content-Encoding). */
export const looksGzipped = (body: Buffer): boolean =>
  body.length >= 2 && body[0] === GZIP_MAGIC[0] && body[1] === GZIP_MAGIC[1];

/**
 * The postback's JSON text: gunzipped, never past `maxBytes` (a decompression bomb stops
 * there, its output discarded). A body that is not gzip is refused.
 */
export function gunzipPostback(
  body: Buffer,
  maxBytes = POSTBACK_MAX_BYTES,
): Promise<{ ok: true; text: string } | ({ ok: false } & PostbackBodyError)> {
  if (!looksGzipped(body)) return Promise.resolve({ ok: false, problem: 'not_gzip' });
  return new Promise((resolve) => {
    gunzip(body, { maxOutputLength: maxBytes }, (err, out) => {
      if (!err) return resolve({ ok: true, text: out.toString('utf8') });
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError)
        return resolve({ ok: false, problem: 'too_large' });
      resolve({ ok: false, problem: 'corrupt', message: err.message });
    });
  });
}

/** One postback's task: its id, its tag and what it says (as task_get's answer would). */
export interface PostbackTask {
  id: string;
  tag: string | null;
  answer: SerpTaskAnswer;
}

/**
 * The task of a postback body (task_get's envelope: `{status_code, tasks: [task]}`), or why
 * it is not one.
 */
export function postbackTask(
  text: string,
): { ok: true; task: PostbackTask } | { ok: false; message: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, message: 'The body is not JSON.' };
  }
  const tasks = (body as { tasks?: unknown } | null)?.tasks;
  if (!Array.isArray(tasks) || tasks.length !== 1)
    return { ok: false, message: 'The body must be an envelope with exactly one task.' };
  const task = tasks[0] as DfsTask<DfsSerpResult> | null;
  if (!task || typeof task !== 'object' || typeof task.id !== 'string' || !task.id)
    return { ok: false, message: 'The task has no id.' };
  if (typeof task.status_code !== 'number')
    return { ok: false, message: 'The task has no status_code.' };
  if (task.result !== null && task.result !== undefined && !Array.isArray(task.result))
    return { ok: false, message: 'The task result must be an array.' };
  const tag = task.data?.tag;
  return {
    ok: true,
    task: { id: task.id, tag: typeof tag === 'string' ? tag : null, answer: serpTaskAnswer(task) },
  };
}
