import type { OAuthClient } from '@app/oauth';
import { authorizationClientId, connectingApp, planTitle } from './session-pages';

describe('session pages: the app named on the sign-in page', () => {
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

describe('session pages: plan titles', () => {
  it('names the known plans and passes others through', () => {
    expect(planTitle('pro')).toBe('Pro');
    expect(planTitle('agency')).toBe('Agency');
    expect(planTitle('custom')).toBe('custom');
  });
});
