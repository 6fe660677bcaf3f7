export * from './api-key-secret';
export * from './api-keys.service';
export * from './accounts.service';
export * from './accounts.module';
