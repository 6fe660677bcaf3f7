import { randomBase62 } from '@app/core';

const ID_BODY_LENGTH = 22; // 22 base62 characters ≈ 131 bits of randomness

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

export function isJobId(value: unknown): value is string {
  return typeof value === 'string' && JOB_ID.test(value);
}

export function isAuditId(value: unknown): value is string {
  return typeof value === 'string' && AUDIT_ID.test(value);
}
