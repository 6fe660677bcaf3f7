/**
 * Transitional: the old name, for libs/site-audit/src/webhooks (moved to libs/webhooks by a
 * parallel change, which imports JobRecordsRepository itself). Delete once nothing imports it.
 */
export { JobRecordsRepository as JobsRepository } from './job-records.repository';
