export * from './oauth-settings';
export * from './oauth-secrets';
export * from './redirect-uris';
export * from './oauth-clients.service';
export * from './oauth-grants.service';
export * from './oauth.module';
export { CLIENT_DOCUMENT_MAX_BYTES, CLIENT_DOCUMENT_TIMEOUT_MS } from './client-metadata-fetcher';
export * from './registration-throttle';
