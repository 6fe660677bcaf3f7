export * from './errors/error-codes';
export * from './errors/api-error';
export * from './time/clock';
export * from './time/format';
export * from './config/app-config';
export * from './config/config.module';
export * from './http/envelope';
export * from './random/prng';
