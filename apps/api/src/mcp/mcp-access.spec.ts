import {
  bearerToken,
  isAcceptedProtocolVersion,
  isAllowedOrigin,
  transportProtocolVersion,
  wwwAuthenticate,
} from './mcp-access';

describe('/mcp access rules', () => {
  const base = 'https://api.example.com';

  it('Origin: absent, PUBLIC_BASE_URL origin and loopback pass; other sites and null are refused', () => {
    expect(isAllowedOrigin(undefined, base)).toBe(true);
    expect(isAllowedOrigin('https://api.example.com', base)).toBe(true);
    expect(isAllowedOrigin('http://localhost:6274', base)).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:3000', base)).toBe(true);
    expect(isAllowedOrigin('http://[::1]:8080', base)).toBe(true);
    expect(isAllowedOrigin('http://api.example.com', base)).toBe(false);
    expect(isAllowedOrigin('https://evil.example', base)).toBe(false);
    expect(isAllowedOrigin('https://localhost.evil.example', base)).toBe(false);
    expect(isAllowedOrigin('null', base)).toBe(false);
    expect(isAllowedOrigin('file://', base)).toBe(false);
  });

  it('MCP-Protocol-Version: the three revisions in use are accepted; 2026-07-28 goes to the SDK as its latest', () => {
    for (const v of ['2025-06-18', '2025-11-25', '2026-07-28', '2025-03-26', undefined])
      expect(isAcceptedProtocolVersion(v)).toBe(true);
    expect(isAcceptedProtocolVersion('2027-01-01')).toBe(false);
    expect(isAcceptedProtocolVersion('')).toBe(false);
    expect(transportProtocolVersion('2026-07-28')).toBe('2025-11-25');
    expect(transportProtocolVersion('2025-06-18')).toBe('2025-06-18');
  });

  it('WWW-Authenticate and bearer parsing', () => {
    expect(wwwAuthenticate(base, false)).toBe(
      'Bearer resource_metadata="https://api.example.com/.well-known/oauth-protected-resource/mcp", scope="seo:read seo:write"',
    );
    expect(wwwAuthenticate(base, true)).toMatch(/, error="invalid_token"$/);
    expect(bearerToken(undefined)).toBeNull();
    expect(bearerToken('Basic abc')).toBe('');
    expect(bearerToken('Bearer abc')).toBe('abc');
  });
});
