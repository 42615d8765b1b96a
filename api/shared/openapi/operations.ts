import type { FastifySchema, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { audienceOf, INTERFACES, tagOf, type SecuritySchemeName } from './interfaces.ts';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type RouteSchema = FastifySchema & { hide?: boolean; [key: string]: unknown };

/**
 * @fastify/swagger's per-route `transform`: the zod schemas as JSON Schema (fastify-type-provider-zod),
 * then what the route's interface decides for it: its tag, its security requirement (with the
 * scope the route declares in `config.scope`) and `x-audience`, which splits the document per
 * audience. Tags and security a route declares itself are replaced: the interface owns them.
 */
export function operationTransform(input: TransformInput) {
  const transformed = jsonSchemaTransform(input);
  const schema = transformed.schema as RouteSchema;
  if (schema.hide) return transformed;
  const config = ((input as { route?: RouteOptions }).route?.config ?? {}) as { scope?: string; keyScheme?: SecuritySchemeName };
  const audience = audienceOf(input.url, config.keyScheme);
  const { scheme } = INTERFACES[audience];
  return {
    ...transformed,
    schema: {
      ...schema,
      tags: [tagOf(input.url, audience)],
      security: scheme ? [{ [scheme]: config.scope && scheme !== 'accessKey' ? [config.scope] : [] }] : [],
      'x-audience': audience,
      ...(config.scope && { 'x-required-scope': config.scope }),
    },
  };
}
