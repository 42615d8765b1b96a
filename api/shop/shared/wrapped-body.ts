import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AS_SENT_422, fieldErrorMap, validationFailure, type FieldErrors } from '../../shared/validation-errors.ts';

/** A write body whose fields travel inside one key (`{product_set: {...}}`). */
export const wrapped = <K extends string, S extends z.ZodType>(key: K, fields: S) =>
  z.strictObject({ [key]: fields } as { [P in K]: S }).meta({ description: `The fields wrapped in \`${key}\`.` });

/**
 * The route error handler of a wrapped body: schema failures answered 422 like every shop route,
 * with the fields named as inside the wrapper (`items.0.product_id`, not
 * `product_set.items.0.product_id`), the names the route's own rule checks use. Anything else goes
 * on to the interface's handler.
 */
export function wrappedFieldNames(key: string) {
  const prefix = `${key}.`;
  return (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    const failure = validationFailure(error, AS_SENT_422);
    if (!failure) throw error;
    const { errors, ...rest } = failure.body as { error: string; errors: FieldErrors };
    const renamed = fieldErrorMap();
    for (const [field, messages] of Object.entries(errors)) (renamed[field.startsWith(prefix) ? field.slice(prefix.length) : field] ??= []).push(...messages);
    reply.serializer(JSON.stringify).type('application/json; charset=utf-8');
    return reply.code(failure.statusCode).send({ ...rest, errors: renamed });
  };
}
