import { KeyedLimiter, llmResponsesEndpoint } from './ai-engine-provider';
import { answerOf, cleanUrl, livePath, llmResponsesTask } from './dataforseo-ai-engine.provider';
import { sandboxAnswer } from './sandbox-ai-engine.provider';

const brands = [
  { name: 'Outdoor Store', domain: 'demo-outdoor.com' },
  { name: 'Summit Gear', domain: 'summit-gear.example' },
  { name: 'Peak Supply', domain: 'peak-supply.example' },
];
const ask = (prompt: string, engine: 'chatgpt' | 'gemini' = 'gemini') => ({
  engine,
  prompt,
  country: 'us',
  tag: 't',
  brands,
});

describe('AI engines', () => {
  it('LLM Responses live paths and requests per engine (web search on, country where taken)', () => {
    expect(livePath('chatgpt')).toBe('/v3/ai_optimization/chat_gpt/llm_responses/live');
    expect(llmResponsesEndpoint('perplexity')).toBe(
      'ai_optimization/perplexity/llm_responses/live',
    );
    expect(llmResponsesTask(ask('q', 'chatgpt'))).toMatchObject({
      user_prompt: 'q',
      model_name: 'gpt-4.1-mini',
      web_search: true,
      web_search_country_iso_code: 'US',
    });
    expect(llmResponsesTask(ask('q'))).not.toHaveProperty('web_search_country_iso_code');
    const perplexity = llmResponsesTask({ ...ask('q'), engine: 'perplexity' });
    expect(perplexity).not.toHaveProperty('web_search');
    expect(llmResponsesTask({ ...ask('q'), engine: 'claude', country: 'EE' })).not.toHaveProperty(
      'web_search_country_iso_code',
    );
    expect(llmResponsesTask(ask('x'.repeat(600))).user_prompt).toHaveLength(500);
  });

  it('reads the message sections and their annotations, tracking parameters removed', () => {
    expect(cleanUrl('https://a.com/x?utm_source=openai&id=2')).toBe('https://a.com/x?id=2');
    expect(cleanUrl('javascript:alert(1)')).toBeNull();
    const a = answerOf({
      items: [
        { type: 'reasoning', sections: [{ type: 'summary_text', text: 'thinking' }] },
        {
          type: 'message',
          sections: [
            {
              type: 'text',
              text: 'One.',
              annotations: [{ url: 'https://a.com/?utm_source=openai' }],
            },
            { type: 'text', text: 'Two.', annotations: null },
            { type: 'text', text: 'Three.', annotations: [{ url: 'https://a.com/' }, null] },
          ],
        },
      ],
    });
    expect(a).toEqual({ text: 'One.\n\nTwo.\n\nThree.', urls: ['https://a.com/'] });
  });

  it('the sandbox answers deterministically by engine, prompt and day, in varying order', () => {
    expect(sandboxAnswer(ask('p1'), '2026-11-26')).toEqual(sandboxAnswer(ask('p1'), '2026-11-26'));
    const days = Array.from({ length: 10 }, (_, i) => `2026-11-${String(i + 10)}`);
    const texts = new Set(days.map((d) => JSON.stringify(sandboxAnswer(ask('p1'), d))));
    expect(texts.size).toBeGreaterThan(5);
    expect(sandboxAnswer(ask('p1', 'chatgpt'), '2026-11-26')).not.toEqual(
      sandboxAnswer(ask('p1'), '2026-11-26'),
    );
  });

  it('KeyedLimiter keeps at most its limit in flight per key', async () => {
    const limiter = new KeyedLimiter(2);
    let now = 0;
    let max = 0;
    const job = () =>
      limiter.run('gemini', async () => {
        max = Math.max(max, ++now);
        await new Promise((r) => setTimeout(r, 5));
        now--;
      });
    await Promise.all([job(), job(), job(), job(), job(), limiter.run('claude', async () => 1)]);
    expect(max).toBe(2);
    expect(limiter.inFlight('gemini')).toBe(0);
  });
});
