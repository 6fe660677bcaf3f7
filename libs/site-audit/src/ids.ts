import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ID_BODY_LENGTH = 22; // 22 base62 characters ≈ 131 bits of randomness

/** 22 uniformly random base62 characters (rejection sampling, no modulo bias). */
function randomBase62(length: number): string {
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

const JOB_ID = /^job_[0-9A-Za-z]{22}$/;
const AUDIT_ID = /^aud_[0-9A-Za-z]{22}$/;

/** An unguessable public job id, e.g. job_3kTMd92jf8AbQx0PzLw1Rv. Also the BullMQ job id. */
export function newJobId(): string {
  return `job_${randomBase62(ID_BODY_LENGTH)}`;
}

/** An unguessable audit id; the report page is reachable by anyone who has it. */
export function newAuditId(): string {
  return `aud_${randomBase62(ID_BODY_LENGTH)}`;
}

/** A webhook delivery id (the `webhook-id` header of every attempt), e.g. msg_3kTMd92jf8AbQx0PzLw1Rv. */
export function newDeliveryId(): string {
  return `msg_${randomBase62(ID_BODY_LENGTH)}`;
}

export function isJobId(value: unknown): value is string {
  return typeof value === 'string' && JOB_ID.test(value);
}

export function isAuditId(value: unknown): value is string {
  return typeof value === 'string' && AUDIT_ID.test(value);
}
