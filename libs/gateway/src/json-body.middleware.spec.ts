import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import request from 'supertest';
import { ApiError } from '@app/core';
import { bodyStage, isJsonMediaType, jsonBodiesOnly, mediaTypeOf } from './json-body.middleware';

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

describe('bodyStage: the body layers as one, passed at once without a body', () => {
  /** An app whose body stage records what ran, then answers what it saw. */
  function stageApp() {
    const ran: string[] = [];
    const app = express();
    app.use(
      bodyStage(
        (_req: Request, _res: Response, next: NextFunction) => {
          ran.push('first');
          next();
        },
        (req: Request, _res: Response, next: NextFunction) => {
          ran.push('second');
          next(req.headers['x-fail'] ? new Error('refused') : undefined);
        },
        (err: Error, _req: Request, res: Response, _next: NextFunction) => {
          ran.push(`error handler: ${err.message}`);
          res.status(400).json({ error: err.message });
        },
      ),
    );
    app.all('/{*any}', (_req, res) => {
      res.json({ ran });
    });
    return { app, ran };
  }

  it('a request without Content-Length or Transfer-Encoding skips every handler', async () => {
    const { app } = stageApp();
    const res = await request(app).get('/api/v1/usage');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ran: [] });
  });

  it('a request that announces a body, even an empty one, runs them in order', async () => {
    const { app } = stageApp();
    const empty = await request(app).post('/x').set('Content-Length', '0');
    expect(empty.body).toEqual({ ran: ['first', 'second'] });
    // A chunked body (no Content-Length), sent by Node's own client.
    const { app: second } = stageApp();
    const server = second.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const body = await new Promise<string>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, path: '/x', method: 'POST' }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
        req.write('{"a":');
        req.end('1}');
      });
      expect(JSON.parse(body)).toEqual({ ran: ['first', 'second'] });
    } finally {
      server.close();
    }
  });

  it("a handler's error reaches the stage's error handler, and no route runs", async () => {
    const { app, ran } = stageApp();
    const res = await request(app).post('/x').set('X-Fail', '1').send({ a: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'refused' });
    expect(ran).toEqual(['first', 'second', 'error handler: refused']);
  });
});
