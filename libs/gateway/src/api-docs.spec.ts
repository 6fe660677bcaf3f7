import { z } from 'zod';
import { answerComponents, named, recordTimestampSchema, successEnvelope } from './api-docs';

describe('answer schemas for /docs', () => {
  it('names each envelope and its parts as components, as OpenAPI 3.0 objects', () => {
    const Item = named('SpecItem', z.object({ n: z.int().nullable(), at: recordTimestampSchema }));
    successEnvelope('SpecItemAnswer', z.object({ items: z.array(Item), first: Item.nullable() }), {
      limit: z.int(),
    });
    const all = answerComponents();
    expect(all.SpecItem).toEqual({
      type: 'object',
      properties: {
        n: { type: 'integer', nullable: true },
        at: expect.objectContaining({ type: 'string', pattern: expect.any(String) }),
      },
      required: ['n', 'at'],
    });
    type Node = {
      properties: Record<string, Node>;
      required?: string[];
      items?: unknown;
      format?: string;
    };
    const answer = all.SpecItemAnswer as unknown as Node & { $id?: string };
    expect(answer.$id).toBeUndefined();
    expect(answer.properties.data.properties.items.items).toEqual({
      $ref: '#/components/schemas/SpecItem',
    });
    expect(answer.properties.meta.required).toEqual(['timestamp', 'request_id', 'limit']);
    expect(answer.properties.meta.properties.timestamp.format).toBe('date-time');
  });
});
