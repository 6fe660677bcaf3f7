import { Controller, Get, Post } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { z } from 'zod';
import { successEnvelope } from './api-docs';
import { CostGroup } from './decorators';
import { Endpoint, EndpointDeclaration, declaredEndpoints, routeOf } from './endpoint';

/** @nestjs/swagger's metadata keys of @ApiOperation and @ApiResponse. */
const API_OPERATION = 'swagger/apiOperation';
const API_RESPONSE = 'swagger/apiResponse';

const SpecThingAnswer = successEnvelope('SpecThingAnswer', z.object({ n: z.int() }));

const declaration = (over: Partial<EndpointDeclaration> = {}) =>
  ({
    operationId: 'getSpecThing',
    summary: 'A thing',
    description: 'What it is.',
    group: 'your-data',
    answer: SpecThingAnswer,
    errors: ['notFound'],
    cost: 'One call.',
    sample: { typescript: 'await client.thing();', pythonPrint: 'answer' },
    client: 'thing',
    mcp: 'get_thing',
    ...over,
  }) as EndpointDeclaration;

@Controller('api/v1/spec-things')
class SpecThingsController {
  @Get(':thing_id')
  @Endpoint(declaration())
  one() {
    return {};
  }

  @Post()
  @Endpoint(
    declaration({
      operationId: 'makeSpecThing',
      group: 'research',
      status: 202,
      mcp: undefined,
      noMcpTool: 'admin only',
    }),
  )
  make() {
    return {};
  }

  @Get('plain')
  plain() {
    return {};
  }

  get notARoute(): number {
    throw new Error('a getter must not be read');
  }
}

describe('@Endpoint: one declaration per public route', () => {
  const mine = () => declaredEndpoints().filter((e) => e.controller === SpecThingsController);

  it('resolves each declared route to its method and OpenAPI path', () => {
    expect(mine().map((e) => [e.method, e.path, e.handler, e.declaration.operationId])).toEqual([
      ['get', '/api/v1/spec-things/{thing_id}', 'one', 'getSpecThing'],
      ['post', '/api/v1/spec-things', 'make', 'makeSpecThing'],
    ]);
  });

  it('routeOf: a route without a declaration has none; a getter is not read', () => {
    expect(routeOf(SpecThingsController, 'plain')).toEqual({
      method: 'get',
      path: '/api/v1/spec-things/plain',
      declaration: undefined,
    });
    expect(routeOf(SpecThingsController, 'notARoute')).toBeNull();
  });

  it('sets the cost group the metering guard reads, on the method', () => {
    const reflector = new Reflector();
    const proto = SpecThingsController.prototype;
    expect(reflector.get(CostGroup, proto.one)).toBe('your-data');
    expect(reflector.get(CostGroup, proto.make)).toBe('research');
    expect(reflector.get(CostGroup, proto.plain)).toBeUndefined();
  });

  it('documents the summary and the named success answer with its status', () => {
    const proto = SpecThingsController.prototype;
    expect(Reflect.getMetadata(API_OPERATION, proto.one)).toMatchObject({
      summary: 'A thing',
      description: 'What it is.',
    });
    const responses = (fn: object) =>
      Reflect.getMetadata(API_RESPONSE, fn) as Record<string, { schema: unknown }>;
    expect(responses(proto.one)['200'].schema).toEqual({
      $ref: '#/components/schemas/SpecThingAnswer',
    });
    expect(Object.keys(responses(proto.make))).toEqual(['202']);
  });

  it('refuses an answer schema that is not named', () => {
    expect(() => Endpoint(declaration({ answer: z.object({}) }))).toThrow(/not a named schema/);
  });
});
