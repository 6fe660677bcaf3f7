import type { SampleCall } from './endpoint';

/**
 * The example ids the endpoint samples name (the @Endpoint `sample` declarations), by what
 * each stands for. A deployment with the demo account (`npm start`) serves its samples with
 * the demo's own ids in their place (withSampleIds; docs/api-reference.md, "Samples and the
 * demo account"); any other serves these.
 */
export const SAMPLE_IDS = {
  /** A rank project the samples change and add keywords to. */
  rankProject: '89',
  /** The rank project the delete sample removes. */
  spareRankProject: '90',
  /** A tracked keyword with checks: its history is read and its status changed. */
  rankKeyword: '123',
  /** The tracked keyword the delete sample removes. */
  spareRankKeyword: '124',
  gscProperty: '45',
  /** An AI-visibility project with scans. */
  aiProject: '67',
  /** The AI-visibility project the delete sample removes. */
  spareAiProject: '68',
  /** A site-audit job. */
  job: 'job_3kTMd92jf8AbQx0PzLw1Rv',
} as const;

export type SampleIdName = keyof typeof SAMPLE_IDS;
export type SampleIds = Partial<Record<SampleIdName, string>>;

/** `value` as a whole token of `text` (not part of a longer number or name). */
const token = (value: string): RegExp =>
  new RegExp(`(?<![A-Za-z0-9_])${value.replace(/[^A-Za-z0-9_]/g, '\\$&')}(?![A-Za-z0-9_])`, 'g');

/**
 * The sample call with the given real ids in place of the example ones: in its path and query
 * values (an exact match; a number stays a number) and, as whole tokens, in its TypeScript
 * lines. Throws when the TypeScript names an example id its path and query do not, or the
 * other way round: the three samples of an operation must name the same ids.
 */
export function withSampleIds(call: SampleCall, ids: SampleIds): SampleCall {
  const out: SampleCall = { ...call };
  let typescript = call.typescript;
  for (const [name, real] of Object.entries(ids) as Array<[SampleIdName, string | undefined]>) {
    if (real === undefined) continue;
    const example = SAMPLE_IDS[name];
    let inCall = false;
    if (call.path)
      out.path = Object.fromEntries(
        Object.entries(out.path ?? call.path).map(([k, v]) => {
          if (v !== example) return [k, v];
          inCall = true;
          return [k, real];
        }),
      );
    if (call.query)
      out.query = Object.fromEntries(
        Object.entries(out.query ?? call.query).map(([k, v]) => {
          if (String(v) !== example) return [k, v];
          inCall = true;
          return [k, typeof v === 'number' ? Number(real) : real];
        }),
      );
    const inTypescript = token(example).test(typescript);
    if (inCall !== inTypescript)
      throw new Error(
        `sample id ${example} (${name}) is in the ${inCall ? 'call' : 'TypeScript'} only`,
      );
    typescript = typescript.replace(token(example), real);
  }
  out.typescript = typescript;
  return out;
}
