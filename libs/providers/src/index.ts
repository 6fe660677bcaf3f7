export * from './seo-data-provider';
export * from './keyword-rules';
export * from './markets';
export * from './dataforseo/dataforseo.client';
export * from './dataforseo/dataforseo.provider';
export * from './dataforseo/dataforseo.mapping';
export * from './sandbox/sandbox.provider';
export * from './providers.module';
