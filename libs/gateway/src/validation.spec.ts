import 'reflect-metadata';
import { ArgumentMetadata } from '@nestjs/common';
import { Matches, MaxLength, Min } from 'class-validator';
import { ApiError, FieldError } from '@app/core';
import { Batch, NullableNumber, QueryInt, Required, Rules, Text } from './dto-fields';
import { ApiValidationPipe } from './validation';

class Item {
  @NullableNumber(1, 10, true)
  position: number | null;
}

class Probe {
  @Text(5)
  name: string;

  @QueryInt(1, 100, { optional: true })
  limit?: number;

  @Rules(Text(20), Matches(/^[a-z]+$/, { message: 'code must be lower-case letters' }))
  code: string;

  @Batch(Item, 'items', { allowEmpty: true })
  items: Item[];
}

/** Rules written one above the other: the bottom one is checked first. */
class Stacked {
  @Required()
  @Min(5)
  @MaxLength(3)
  value: unknown;
}

async function details(metatype: new () => object, value: object): Promise<FieldError[]> {
  const metadata: ArgumentMetadata = { type: 'body', metatype };
  try {
    await new ApiValidationPipe().transform(value, metadata);
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    const error = e as ApiError;
    expect(error.code).toBe('VALIDATION_ERROR');
    const list = error.details as FieldError[];
    expect(error.message).toBe(list.map((d) => d.message).join('; '));
    return list;
  }
  return [];
}

describe('ApiValidationPipe: one message per field, the first rule that failed', () => {
  it('an absent required field is "<field> is required" and nothing else', async () => {
    expect(await details(Probe, {})).toEqual([
      { field: 'name', message: 'name is required' },
      { field: 'code', message: 'code is required' },
      { field: 'items', message: 'items is required' },
    ]);
  });

  it('null is absent, unless the field may be null', async () => {
    expect(await details(Probe, { name: null, code: 'ab', items: [{ position: null }] })).toEqual([
      { field: 'name', message: 'name is required' },
    ]);
  });

  it('a wrong type reports the type rule, not the length or range behind it', async () => {
    expect(await details(Probe, { name: 5, code: 7, items: 'x', limit: 'abc' })).toEqual([
      { field: 'name', message: 'name must be a string' },
      { field: 'limit', message: 'limit must be an integer number' },
      { field: 'code', message: 'code must be a string' },
      { field: 'items', message: 'items must be an array' },
    ]);
  });

  it('then the length, range or format rule, in the order listed', async () => {
    expect(await details(Probe, { name: 'toolong', code: 'ABC', items: [], limit: '0' })).toEqual([
      { field: 'name', message: 'name must be shorter than or equal to 5 characters' },
      { field: 'limit', message: 'limit must not be less than 1' },
      { field: 'code', message: 'code must be lower-case letters' },
    ]);
  });

  it('nested members are reported one per member, by path', async () => {
    expect(
      await details(Probe, {
        name: 'a',
        code: 'a',
        items: [{}, { position: 11 }, { position: 2 }],
      }),
    ).toEqual([
      { field: 'items.0.position', message: 'position is required' },
      { field: 'items.1.position', message: 'position must be null or an integer from 1 to 10' },
    ]);
  });

  it('Required is checked first even when written above the other rules', async () => {
    expect(await details(Stacked, {})).toEqual([{ field: 'value', message: 'value is required' }]);
    // Without Rules(), decorators apply bottom-up: MaxLength is checked before Min.
    expect(await details(Stacked, { value: 2 })).toEqual([
      { field: 'value', message: 'value must be shorter than or equal to 3 characters' },
    ]);
  });

  it('a valid value passes, transformed', async () => {
    const pipe = new ApiValidationPipe();
    const out = await pipe.transform(
      { name: ' ab ', code: 'abc', items: [{ position: null }], limit: '7' },
      { type: 'body', metatype: Probe },
    );
    expect(out).toMatchObject({ name: 'ab', code: 'abc', limit: 7 });
  });
});
