/**
 * The demo account as the document's samples find it (ops) and the seed makes it (cli): the
 * one place both read, so neither folder imports the other's code.
 */

/** The demo account's name: how the seed and the document's samples find it. */
export const DEMO_ACCOUNT_NAME = 'Demo (Pro)';

/**
 * What the samples of /docs name on a deployment with the demo account (docs/api-reference.md,
 * "Samples and the demo account"): the demo rows each example id of SAMPLE_IDS stands for,
 * found by their natural keys when the document is built (DemoSamplesRepository). The seed
 * makes sure they exist (seedDemoSampleTargets).
 */
export const DEMO_SAMPLE_TARGETS = {
  /** rankProject: the recipe blog (not tracked, so the samples' changes stop no collection). */
  rankProjectDomain: 'demo-recipes.com',
  /** rankKeyword: a recipe-blog keyword with 120 days of checks. */
  rankKeyword: 'sourdough bread recipe',
  /** spareRankProject and spareAiProject: made for the delete samples. */
  spareDomain: 'demo-spare.com',
  /** spareRankKeyword: in the recipe blog, made for the delete sample. */
  spareRankKeyword: 'spare keyword for the delete sample',
  gscPropertyUri: 'sc-domain:demo-outdoor.com',
  /** aiProject: the outdoor store on ChatGPT, with 8 weekly scans. */
  aiProjectDomain: 'demo-outdoor.com',
  aiProjectEngine: 'chatgpt',
  /** job: the demo audit of the outdoor store (the account's newest complete audit). */
  auditUrl: 'https://demo-outdoor.com/',
} as const;
