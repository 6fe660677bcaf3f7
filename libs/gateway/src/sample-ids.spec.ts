import { SAMPLE_IDS, withSampleIds } from './sample-ids';

describe('withSampleIds: the samples with real ids in place of the example ones', () => {
  const call = {
    path: { project_id: SAMPLE_IDS.rankProject },
    query: { keyword_id: Number(SAMPLE_IDS.rankKeyword), days: 30 },
    typescript: 'await client.x(89, { keyword_id: 123, days: 30, limit: 1890 });',
    pythonPrint: 'answer["data"]',
  };

  it('replaces path and query values and the whole tokens of the TypeScript', () => {
    const out = withSampleIds(call, { rankProject: '7', rankKeyword: '8001' });
    expect(out.path).toEqual({ project_id: '7' });
    expect(out.query).toEqual({ keyword_id: 8001, days: 30 }); // a number stays a number
    expect(out.typescript).toBe('await client.x(7, { keyword_id: 8001, days: 30, limit: 1890 });');
    expect(call.path.project_id).toBe('89'); // the declaration is left as it is
  });

  it('leaves the call as it is without ids, or with ids the call does not name', () => {
    expect(withSampleIds(call, {})).toEqual(call);
    expect(withSampleIds(call, { gscProperty: '3', job: 'job_x' })).toEqual(call);
  });

  it('replaces the job id everywhere in the TypeScript, comments included', () => {
    const job = {
      path: { job_id: SAMPLE_IDS.job },
      typescript: `await client.job('${SAMPLE_IDS.job}');\n// await client.waitForJob('${SAMPLE_IDS.job}')`,
      pythonPrint: 'answer',
    };
    const out = withSampleIds(job, { job: 'job_real' });
    expect(out.path).toEqual({ job_id: 'job_real' });
    expect(out.typescript).toBe(
      "await client.job('job_real');\n// await client.waitForJob('job_real')",
    );
  });

  it('refuses a sample whose TypeScript and call name different ids', () => {
    expect(() =>
      withSampleIds({ ...call, typescript: 'client.x(90)' }, { rankProject: '7' }),
    ).toThrow(/sample id 89 \(rankProject\) is in the call only/);
    expect(() =>
      withSampleIds({ typescript: 'client.x(45)', pythonPrint: 'a' }, { gscProperty: '7' }),
    ).toThrow(/sample id 45 \(gscProperty\) is in the TypeScript only/);
  });
});
