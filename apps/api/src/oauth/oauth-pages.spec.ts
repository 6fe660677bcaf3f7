import { handBackPage, noApiAccessReason, returnTarget } from './oauth-pages';

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
