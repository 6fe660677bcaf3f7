import { successResult } from './tool-result';

describe('tool results: meta.warnings', () => {
  const ok = (meta: Record<string, unknown>) =>
    successResult({ ok: true, status: 200, data: { dim: 'query' }, meta });

  it('puts the warnings first in the text, and keeps them in structuredContent', () => {
    const warnings = [
      {
        code: 'value_replaced',
        field: 'dim',
        message: 'dim "pages" is not recognized; query was applied instead.',
        applied: 'query',
      },
    ];
    const result = ok({ request_id: 'r1', warnings });
    const text = (result.content[0] as { text: string }).text.split('\n');
    expect(text[1]).toBe('Warnings: dim "pages" is not recognized; query was applied instead.');
    expect((result.structuredContent as { meta: { warnings: unknown } }).meta.warnings).toEqual(
      warnings,
    );
  });

  it('says nothing of warnings when there are none', () => {
    const text = (ok({ request_id: 'r1' }).content[0] as { text: string }).text;
    expect(text).not.toContain('Warnings');
  });
});
