import type { OAuthClient } from '@app/oauth';
import {
  authorizationClientId,
  connectingApp,
  handBackPage,
  noApiAccessReason,
  returnTarget,
} from './oauth-pages';

describe('OAuth pages: the app named on the sign-in page', () => {
  it.each([
    ['/oauth/authorize?client_id=mcp-1&redirect_uri=x', 'mcp-1'],
    ['/oauth/authorize/?client_id=mcp-1', 'mcp-1'],
    ['/OAuth/Authorize?client_id=mcp-1', 'mcp-1'],
    ['/oauth/authorize?client_id=https%3A%2F%2Fapp.example%2Fc.json', 'https://app.example/c.json'],
    ['/oauth/authorize?response_type=code', ''],
  ])('a return_to resuming an authorization request: %j names %j', (returnTo, clientId) => {
    expect(authorizationClientId(returnTo)).toBe(clientId);
  });

  it.each([
    null,
    undefined,
    '',
    '/account',
    '/oauth/authorize/decision?client_id=mcp-1',
    '/x?client_id=a',
  ])('any other return_to (%j) is no authorization request', (returnTo) => {
    expect(authorizationClientId(returnTo)).toBeNull();
  });

  it('names the registered client, with its URL when that is its identity; none when unknown or blank', () => {
    const client = (id: string, name?: string) =>
      ({ client_id: id, client_name: name, redirect_uris: [] }) as unknown as OAuthClient;
    expect(connectingApp(client('mcp-1', '  Cursor '))).toEqual({
      name: 'Cursor',
      identityUrl: null,
    });
    expect(connectingApp(client('https://app.example/c.json', 'Assistant'))).toEqual({
      name: 'Assistant',
      identityUrl: 'https://app.example/c.json',
    });
    expect(connectingApp(client('mcp-2', '   '))).toEqual({ name: null, identityUrl: null });
    expect(connectingApp(client('mcp-3'))).toEqual({ name: null, identityUrl: null });
    expect(connectingApp(undefined)).toEqual({ name: null, identityUrl: null });
  });
});

describe('OAuth pages: where the browser returns, and the refusal page (issue 36)', () => {
  it('a web redirect URI is named by its host; a native one by its scheme and address', () => {
    expect(returnTarget('http://127.0.0.1:9999/cb')).toEqual({
      host: '127.0.0.1:9999',
      scheme: null,
      address: null,
    });
    expect(returnTarget('https://app.example/cb?x=1')).toEqual({
      host: 'app.example',
      scheme: null,
      address: null,
    });
    expect(returnTarget('cursor://callback?x=1')).toEqual({
      host: null,
      scheme: 'cursor:',
      address: 'cursor://callback',
    });
    expect(returnTarget('com.example.app:/cb')).toEqual({
      host: null,
      scheme: 'com.example.app:',
      address: 'com.example.app:/cb',
    });
  });

  it.each([
    ['http://127.0.0.1:9/cb?error=access_denied&state=s', true],
    ['https://app.example/cb?error=access_denied', true],
    ['cursor://callback?error=access_denied&state=s', true],
    ['com.example.app:/cb?error=access_denied', true],
    ['javascript:alert(1)', false],
    ['JAVASCRIPT:alert(1)', false],
    ['data:text/html,x', false],
    ['myapp://cb?error=access_denied', false],
    ['cursor://call back?error=x', false],
    ['//evil.example/cb', false],
  ])('the hand-back link to %j is kept: %s', (url, kept) => {
    const page = handBackPage({
      heading: 'h',
      reason: 'r',
      clientName: 'App',
      redirectUri: url.split('?')[0],
      returnUrl: url,
    });
    expect(page.returnUrl).toBe(kept ? url : null);
  });

  it('the plan refusal names the account and its plan, and what has API access', () => {
    expect(noApiAccessReason('Acme', 'starter')).toBe(
      'Your account Acme is on the Starter plan, which has no API access, so no app can be connected to it. Free and Starter plans have no API access; upgrade to Pro or Agency (contact us) to connect apps.',
    );
    expect(noApiAccessReason('Acme', 'free')).toContain('on the Free plan');
  });
});
