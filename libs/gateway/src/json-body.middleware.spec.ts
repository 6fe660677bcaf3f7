import type { Request, Response } from 'express';
import { ApiError } from '@app/core';
import { isJsonMediaType, jsonBodiesOnly, mediaTypeOf } from './json-body.middleware';

const JSON_APIS = /^\/(api|account|admin)\/v1(\/|$)/i;

function run(path: string, headers: Record<string, string>): ApiError | undefined {
  let passed: unknown = 'not called';
  const req = { path, headers } as unknown as Request;
  jsonBodiesOnly(JSON_APIS)(req, {} as Response, (err?: unknown) => {
    passed = err;
  });
  if (passed === 'not called') throw new Error('next() was not called');
  return passed as ApiError | undefined;
}

describe('jsonBodiesOnly: the JSON APIs take JSON bodies only', () => {
  it('media types: application/json and application/<name>+json, any case and parameters', () => {
    for (const header of [
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/vnd.api+json',
      'application/merge-patch+json; charset=utf-8',
    ]) {
      expect({ header, json: isJsonMediaType(mediaTypeOf(header)) }).toEqual({
        header,
        json: true,
      });
    }
    for (const header of [
      'text/plain',
      'text/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      'application/jsonp',
      'application/+json',
      '',
      ';',
      'json',
    ]) {
      expect({ header, json: isJsonMediaType(mediaTypeOf(header)) }).toEqual({
        header,
        json: false,
      });
    }
  });

  it.each([
    [
      'a form',
      'application/x-www-form-urlencoded',
      'Content-Type "application/x-www-form-urlencoded"',
    ],
    ['plain text', 'text/plain;charset=UTF-8', 'Content-Type "text/plain"'],
    ['multipart', 'multipart/form-data; boundary=x', 'Content-Type "multipart/form-data"'],
    ['no Content-Type', undefined, 'no Content-Type'],
  ])('a body that is %s: 415 UNSUPPORTED_MEDIA_TYPE, "send JSON"', (_what, type, said) => {
    const headers: Record<string, string> = { 'content-length': '9' };
    if (type !== undefined) headers['content-type'] = type;
    for (const path of ['/api/v1/keyword-research', '/account/v1/api-keys', '/ADMIN/v1/accounts']) {
      const err = run(path, headers);
      expect(err).toBeInstanceOf(ApiError);
      expect(err!.status).toBe(415);
      expect(err!.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(err!.message).toContain(said);
      expect(err!.message).toContain('Send the body as JSON with Content-Type: application/json.');
    }
  });

  it('passes JSON bodies, requests without a body, and paths outside the JSON APIs', () => {
    expect(
      run('/api/v1/site-audit', {
        'content-length': '2',
        'content-type': 'application/json; charset=utf-8',
      }),
    ).toBeUndefined();
    expect(
      run('/api/v1/site-audit', {
        'transfer-encoding': 'chunked',
        'content-type': 'application/vnd.api+json',
      }),
    ).toBeUndefined();
    expect(
      run('/api/v1/site-audit', { 'content-length': '0', 'content-type': 'text/plain' }),
    ).toBeUndefined();
    expect(run('/api/v1/usage', {})).toBeUndefined();
    // Pages and OAuth take forms.
    const form = { 'content-length': '9', 'content-type': 'application/x-www-form-urlencoded' };
    expect(run('/account/sign-in', form)).toBeUndefined();
    expect(run('/oauth/token', form)).toBeUndefined();
    expect(run('/api/v10/x', form)).toBeUndefined();
  });

  it('a chunked body without Content-Type is a body', () => {
    expect(run('/api/v1/keyword-research', { 'transfer-encoding': 'chunked' })?.status).toBe(415);
  });
});
