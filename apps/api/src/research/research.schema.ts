import { z } from 'zod';
import type { Charge } from './research-runner.service';

const CHARGES = ['none', 'quota', 'credit'] as const satisfies readonly Charge[];

/** meta members of the research answers (/backlinks, /keyword-research). */
export const researchMeta = {
  cached: z.boolean().meta({
    description:
      'true when served from the cache: no feature quota and no credit used (still one API call)',
  }),
  provider: z
    .string()
    .meta({ description: 'The data source that answered', example: 'dataforseo' }),
  charged: z.enum(CHARGES).meta({
    description: 'What this answer drew: nothing (none), one unit of feature quota, or one credit',
  }),
};
