import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type SerializerCompiler = Parameters<typeof zodSerializerCompiler>[0];

/**
 * A route's `serializerCompiler` for its hottest replies: the zod schemas of `statuses` are
 * turned into JSON Schema once, at start, and compiled by fast-json-stringify, so a reply is
 * written without a zod pass and a generic JSON.stringify. For replies built from our own
 * statements only (fast-json-stringify coerces rather than rejects); other statuses keep the
 * zod serializer. The zod schemas stay the route's schemas, so the OpenAPI document is unchanged.
 */
export function precompiledSerializer(statuses: readonly number[]) {
  return <T>(route: { schema: T; method: string; url: string; httpStatus?: string }): ((data: unknown) => string) => {
    const status = Number(route.httpStatus);
    if (!statuses.includes(status) || !(route.schema instanceof z.ZodType)) return zodSerializerCompiler(route as unknown as SerializerCompiler);
    return fastJson(z.toJSONSchema(route.schema, { target: 'draft-7', io: 'output' }) as Parameters<typeof fastJson>[0]);
  };
}
