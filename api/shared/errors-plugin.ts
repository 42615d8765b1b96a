import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from './errors.ts';
import { replyIfDatabaseUnavailable } from './unavailable.ts';
import { QUALIFIED_400, validationFailure } from './validation-errors.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Fastify's own URL failures, before any route is found (`frameworkErrors` of the Fastify options):
 * malformed percent-encoding (400) and a path parameter over `maxParamLength` (414). Answered with
 * the usual small `{error}` instead of Fastify's default body, which echoes the whole path.
 */
export function frameworkErrorReply(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : error.code === 'FST_ERR_BAD_URL' ? 400 : 500;
  const message = status === 414 ? 'a path parameter is too long' : status === 400 ? 'malformed URL' : 'internal server error';
  return reply.code(status).type(JSON_TYPE).send(JSON.stringify({ error: message }));
}

/**
 * One place maps every failure to a small JSON body: our HttpErrors as thrown, schema validation
 * to 400 naming the fields (an interface may answer its own in another style: validation-errors.ts),
 * Fastify's own client errors (bad JSON, wrong content type, body too large) to their 4xx,
 * anything else to a 500 that reveals nothing.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      // Error bodies are ours and always well-formed; a route's success schema must not reject them.
      // A custom serializer makes Fastify leave the content type unset: it is JSON, say so.
      reply.serializer(JSON.stringify).type(JSON_TYPE);
      const known = error instanceof HttpError ? error : validationFailure(error, QUALIFIED_400);
      if (known) return reply.code(known.statusCode).headers(known.headers).send(known.body);
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        return reply.code(status).send({ error: error.message });
      }
      const unavailable = replyIfDatabaseUnavailable(error, request, reply);
      if (unavailable) return unavailable;
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send({ error: 'internal server error' });
    });

    app.setNotFoundHandler((request, reply) => reply.code(404).send({ error: `route ${request.method} ${request.url.split('?')[0]} not found` }));
  },
  { name: 'errors' },
);
