export * from './call-meter.service';
export * from './credits.service';
export * from './feature-quota.service';
export * from './billing.module';
export * from './reservations.repository';
export * from './usage-history.repository';
export * from './usage-history.service';
export * from './usage-alert-firing.repository';
