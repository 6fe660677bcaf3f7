/**
 * Connector configuration, read once from the environment at start-up.
 *
 * SEO_API_KEY is required; everything else has a default. Invalid values stop the process
 * with a message naming the variable (never echoing the key).
 */
export interface McpConfig {
  /** The account's API key, sent as `Authorization: Bearer <key>`; never logged. */
  apiKey: string;
  /** Origin (optionally with a path prefix) of the REST API, without a trailing slash. */
  baseUrl: string;
  /** Per-request HTTP timeout in milliseconds. */
  requestTimeoutMs: number;
  /**
   * run_site_audit's pause after a long-poll (GET /jobs/{id}?wait=) the API answered early
   * without a final state (its waiting limits), in milliseconds.
   */
  pollIntervalMs: number;
  /** Default longest wait of run_site_audit, in milliseconds. */
  maxWaitMs: number;
  /** Pause between run_site_audit's progress notifications, in milliseconds. */
  progressIntervalMs: number;
}

export const DEFAULT_BASE_URL = 'http://localhost:3000';
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** Pause after an early non-final long-poll answer (the API's waiting limits were reached). */
const DEFAULT_POLL_INTERVAL_MS = 15_000;
/** Below the usual 60 s request timeout of MCP clients, so a waiting call returns in time. */
const DEFAULT_MAX_WAIT_MS = 50_000;
/** Progress of run_site_audit: well under the usual 60 s request timeout of MCP clients. */
const DEFAULT_PROGRESS_INTERVAL_MS = 10_000;

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integerVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw))
    throw new ConfigError(`${name} must be a whole number of milliseconds (got "${raw}")`);
  const value = Number(raw);
  if (value < min || value > max)
    throw new ConfigError(`${name} must be between ${min} and ${max} (got ${value})`);
  return value;
}

/** An absolute http(s) URL without credentials, query or fragment; trailing slashes and a trailing /api/v1 removed. */
export function parseBaseUrl(raw: string | undefined): string {
  const value = (raw ?? '').trim() || DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      `SEO_API_BASE_URL must be an absolute URL such as ${DEFAULT_BASE_URL} (got "${value}")`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(
      `SEO_API_BASE_URL must start with http:// or https:// (got "${url.protocol}")`,
    );
  }
  if (url.username || url.password) {
    throw new ConfigError(
      'SEO_API_BASE_URL must not contain a user name or password; the key goes in SEO_API_KEY',
    );
  }
  if (url.search || url.hash)
    throw new ConfigError('SEO_API_BASE_URL must not contain a query string or fragment');
  // The tools add /api/v1 themselves; a base URL copied with it is accepted.
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/i, '');
  return `${url.origin}${path}`;
}

export function loadMcpConfig(env: Env): McpConfig {
  const apiKey = env.SEO_API_KEY?.trim() ?? '';
  if (apiKey === '') {
    throw new ConfigError(
      'SEO_API_KEY is not set. Put your API key (Pro or Agency plan) in the "env" block of the MCP client configuration.',
    );
  }
  if (/\s/.test(apiKey))
    throw new ConfigError('SEO_API_KEY must not contain spaces or line breaks');
  return {
    apiKey,
    baseUrl: parseBaseUrl(env.SEO_API_BASE_URL),
    requestTimeoutMs: integerVar(
      env,
      'SEO_API_TIMEOUT_MS',
      DEFAULT_REQUEST_TIMEOUT_MS,
      1_000,
      600_000,
    ),
    pollIntervalMs: integerVar(
      env,
      'SEO_MCP_POLL_INTERVAL_MS',
      DEFAULT_POLL_INTERVAL_MS,
      100,
      300_000,
    ),
    maxWaitMs: integerVar(env, 'SEO_MCP_MAX_WAIT_MS', DEFAULT_MAX_WAIT_MS, 0, 3_600_000),
    progressIntervalMs: integerVar(
      env,
      'SEO_MCP_PROGRESS_INTERVAL_MS',
      DEFAULT_PROGRESS_INTERVAL_MS,
      100,
      50_000,
    ),
  };
}
