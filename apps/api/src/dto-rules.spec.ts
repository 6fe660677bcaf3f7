import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ValidationTypes, getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { ApiError, FieldError } from '@app/core';
import { ApiValidationPipe } from '@app/gateway';

/**
 * Every request DTO of the API (apps/api/src/**\/*.dto.ts: public, account-area and admin)
 * answers one message per field, the first rule that failed, in the order presence → type →
 * length, range or format.
 */
const dtos: Array<[string, new () => object]> = [];
for (const file of readdirSync(__dirname, { recursive: true }) as string[]) {
  if (!file.endsWith('.dto.ts')) continue;
  // Every DTO file, found by name, so a new one is checked without being listed here.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exported = require(join(__dirname, file)) as Record<string, unknown>;
  for (const [name, value] of Object.entries(exported)) {
    if (typeof value === 'function' && rulesOf(value as new () => object).size > 0) {
      dtos.push([`${file} ${name}`, value as new () => object]);
    }
  }
}

/** A property's validation metadata, in the order class-validator checks them. */
function rulesOf(dto: new () => object): Map<string, ValidationMetadata[]> {
  const all = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const m of all)
    byProperty.set(m.propertyName, [...(byProperty.get(m.propertyName) ?? []), m]);
  return byProperty;
}

const TYPE_RULES = new Set(['isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject']);

async function detailsOf(dto: new () => object, body: object): Promise<FieldError[]> {
  try {
    await new ApiValidationPipe().transform(body, { type: 'body', metatype: dto });
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('VALIDATION_ERROR');
    return (e as ApiError).details as FieldError[];
  }
}

describe('request DTOs: one message per field, the first rule that failed', () => {
  it('finds the DTOs', () => {
    expect(dtos.length).toBeGreaterThanOrEqual(25);
  });

  describe.each(dtos)('%s', (_name, dto) => {
    const rules = rulesOf(dto);

    it('every field is optional or required (an absent value never meets a type, length or range rule)', () => {
      for (const [property, list] of rules) {
        const types = list.map((m) => m.type);
        expect({
          property,
          optionalOrRequired:
            types.includes(ValidationTypes.CONDITIONAL_VALIDATION) ||
            types.includes(ValidationTypes.IS_DEFINED),
        }).toEqual({ property, optionalOrRequired: true });
      }
    });

    it('a type rule comes before every other rule of its field', () => {
      for (const [property, list] of rules) {
        const checks = list
          .filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION)
          .map((m) => m.name ?? '');
        if (!checks.some((n) => TYPE_RULES.has(n))) continue;
        expect({ property, first: checks[0] }).toEqual({
          property,
          first: expect.stringMatching(/^is(String|Int|Number|Boolean|Array|Object)$/),
        });
      }
    });

    it('an empty body: each required field once, "<field> is required"', async () => {
      const details = await detailsOf(dto, {});
      const fields = details.map((d) => d.field);
      expect(new Set(fields).size).toBe(fields.length);
      for (const d of details) expect(d.message).toMatch(new RegExp(`^${d.field} is required`));
    });

    it.each([
      ['a number', 12345],
      ['a boolean', true],
      ['an object', { a: 1 }],
      ['an array', [1, 'x']],
      ['a long string', 'x'.repeat(5000)],
    ])('each field set to %s: at most one message per field', async (_what, value) => {
      for (const property of rules.keys()) {
        const details = await detailsOf(dto, { [property]: value });
        const fields = details.map((d) => d.field);
        expect({ property, fields }).toEqual({ property, fields: [...new Set(fields)] });
      }
    });
  });
});
