import { ConfigError, loadConfig } from './app-config';

/** Statement, lock and HTTP server bounds (issue 35; docs/reliability.md, "Timeouts"). */
describe('timeout settings', () => {
  it('defaults', () => {
    const c = loadConfig({});
    expect(c.dbTimeouts).toEqual({
      statementTimeoutMs: 10_000,
      lockTimeoutMs: 3_000,
      bulkStatementTimeoutMs: 120_000,
    });
    expect(c.httpTimeouts).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
    });
  });

  it('reads each variable', () => {
    const c = loadConfig({
      DB_STATEMENT_TIMEOUT_MS: '2000',
      DB_LOCK_TIMEOUT_MS: '500',
      DB_BULK_STATEMENT_TIMEOUT_MS: '60000',
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '4000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
    });
    expect(c.dbTimeouts).toEqual({
      statementTimeoutMs: 2000,
      lockTimeoutMs: 500,
      bulkStatementTimeoutMs: 60_000,
    });
    expect(c.httpTimeouts).toEqual({
      headersTimeoutMs: 2000,
      requestTimeoutMs: 4000,
      keepAliveTimeoutMs: 65_000,
    });
  });

  it.each([
    ['DB_STATEMENT_TIMEOUT_MS', '0'],
    ['DB_STATEMENT_TIMEOUT_MS', '99'],
    ['DB_STATEMENT_TIMEOUT_MS', '600001'],
    ['DB_STATEMENT_TIMEOUT_MS', '1.5'],
    ['DB_STATEMENT_TIMEOUT_MS', 'ten'],
    ['DB_STATEMENT_TIMEOUT_MS', '-1'],
    ['DB_LOCK_TIMEOUT_MS', '0'],
    ['DB_LOCK_TIMEOUT_MS', '1e3'],
    ['DB_BULK_STATEMENT_TIMEOUT_MS', '999'],
    ['DB_BULK_STATEMENT_TIMEOUT_MS', '3600001'],
    ['HTTP_HEADERS_TIMEOUT_MS', '999'],
    ['HTTP_REQUEST_TIMEOUT_MS', '600001'],
    ['HTTP_REQUEST_TIMEOUT_MS', '30s'],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', '0'],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', ' '],
  ])('%s=%p stops start-up naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('a lock bound above the statement bound is refused (the statement bound covers lock waits)', () => {
    expect(() =>
      loadConfig({ DB_STATEMENT_TIMEOUT_MS: '1000', DB_LOCK_TIMEOUT_MS: '1001' }),
    ).toThrow(/DB_LOCK_TIMEOUT_MS/);
    expect(
      loadConfig({ DB_STATEMENT_TIMEOUT_MS: '1000', DB_LOCK_TIMEOUT_MS: '1000' }).dbTimeouts
        .lockTimeoutMs,
    ).toBe(1000);
  });

  it('a bulk bound below the request bound is refused', () => {
    expect(() =>
      loadConfig({ DB_STATEMENT_TIMEOUT_MS: '20000', DB_BULK_STATEMENT_TIMEOUT_MS: '10000' }),
    ).toThrow(/DB_BULK_STATEMENT_TIMEOUT_MS/);
  });

  it('a headers bound above the request bound is refused', () => {
    expect(() =>
      loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' }),
    ).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
  });
});
