import { Foundation1763700000000 } from './1763700000000-foundation';

/** Every migration, in order. Add new migrations at the end. */
export const MIGRATIONS = [Foundation1763700000000];
