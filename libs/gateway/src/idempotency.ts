import { createHash } from 'node:crypto';
import type { Response } from 'express';
import { ApiError } from '@app/core';
import type { IdempotentAnswer } from '@app/database';
import type { ApiRequest } from './request-context';

/** The request header (case-insensitive) and the header of a replayed answer. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1-255 printable ASCII characters (space to tilde). */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** Headers of a kept answer that a replay sends again (the rest belong to the new request). */
export const REPLAYED_HEADERS = ['content-type', 'location'] as const;

/**
 * The Idempotency-Key of a request: undefined when there is none, the key when it is
 * well-formed, else 422 VALIDATION_ERROR. Sent more than once (Node would join the copies
 * with ", " into one plausible key) is refused as well.
 */
export function idempotencyKeyOf(req: Pick<ApiRequest, 'rawHeaders'>): string | undefined {
  const values: string[] = [];
  const raw = req.rawHeaders ?? [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i].toLowerCase() === 'idempotency-key') values.push(raw[i + 1]);
  }
  if (values.length === 0) return undefined;
  if (values.length > 1) throw invalidKey('send the Idempotency-Key header once');
  const key = values[0];
  if (key.length === 0) throw invalidKey('Idempotency-Key must not be empty');
  if (key.length > 255) throw invalidKey('Idempotency-Key must be at most 255 characters');
  if (!KEY_PATTERN.test(key))
    throw invalidKey('Idempotency-Key must be printable ASCII characters (space to ~)');
  return key;
}

function invalidKey(message: string): ApiError {
  return ApiError.validation('Idempotency-Key', message);
}

/**
 * JSON text of a parsed value with object members sorted by name, so that two bodies equal
 * as parsed JSON (member order, spacing, escapes) give the same text. Built as text, never
 * as objects, so a member named `__proto__` stays a member.
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const names = Object.keys(value).sort();
  const members = names.map(
    (name) => `${JSON.stringify(name)}:${canonicalJson((value as Record<string, unknown>)[name])}`,
  );
  return `{${members.join(',')}}`;
}

/**
 * What makes two requests of one route the same request: the path parameters, the query
 * (without `api_key`, which is the credential) and the parsed JSON body.
 */
export function requestHash(req: Pick<ApiRequest, 'params' | 'query' | 'body'>): string {
  const { api_key: _credential, ...query } = (req.query ?? {}) as Record<string, unknown>;
  const text = canonicalJson({ params: req.params ?? {}, query, body: req.body ?? null });
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Thrown by the idempotency guard to answer a repeat with the kept answer instead of running
 * the handler; the exception filter writes it as it is (no envelope of its own, no count
 * as an error).
 */
export class IdempotentReplay {
  constructor(readonly answer: IdempotentAnswer) {}

  write(res: Response): void {
    for (const [name, value] of Object.entries(this.answer.headers)) res.setHeader(name, value);
    res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
    res.setHeader('Content-Length', this.answer.body.length);
    res.status(this.answer.status);
    res.end(this.answer.body);
  }
}
