import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `length` uniformly random base62 characters (rejection sampling, no modulo bias): the body
 * of the public ids (jobs, audits, webhook deliveries).
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 248) continue; // 248 = 62 * 4: keep only bytes that map evenly
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}
