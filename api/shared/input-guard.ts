import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { badRequest } from './errors.ts';
import { ErrorBody } from './schemas.ts';

/** Deepest nesting a body may have; the deepest the access interface reads is an order's `file_keys` member (7). */
export const MAX_INPUT_DEPTH = 32;

/** What PostgreSQL cannot store: NUL (text and jsonb) and unpaired UTF-16 surrogates (jsonb). */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export interface InputProblem {
  field: string;
  message: string;
}

const fieldName = (path: readonly string[]) => {
  const name = path.join('.');
  return name.length > 200 ? `${name.slice(0, 200)}...` : name;
};

/**
 * The first place in a parsed body or query that no handler should see: nesting deeper than
 * `maxDepth`, or a string or key PostgreSQL cannot store. Walks without recursion, so any depth
 * the JSON parser accepted is safe here.
 */
export function inputProblem(value: unknown, root: string, maxDepth = MAX_INPUT_DEPTH): InputProblem | null {
  const pending: { value: unknown; path: string[] }[] = [{ value, path: [root] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value: current, path } = next;
    if (typeof current === 'string') {
      if (UNSTORABLE.test(current)) return { field: fieldName(path), message: 'must not contain NUL characters or unpaired UTF-16 surrogates' };
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (path.length > maxDepth) return { field: fieldName(path), message: `is nested too deeply (at most ${maxDepth} levels)` };
    for (const [key, member] of Object.entries(current)) {
      if (UNSTORABLE.test(key)) return { field: fieldName(path), message: 'has a key with NUL characters or unpaired UTF-16 surrogates' };
      pending.push({ value: member, path: [...path, key] });
    }
  }
  return null;
}

const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// No schema ids: each description then becomes the reply's description in the OpenAPI document.
const BodyTooLargeReply = z.object({ error: z.string() }).describe('The body is over the 1 MB limit.');
const UnsupportedMediaTypeReply = z.object({ error: z.string() }).describe('The body is neither JSON nor plain text.');

/**
 * Input every route of the encapsulating plugin refuses before its own validation: bodies (and
 * the query of routes that read one) nested too deeply or holding text PostgreSQL cannot store
 * get 400 `{error, errors: {field: [message]}}`, never a 500 further down. Routes that parse a
 * body also document the replies of the body parser: 400 (malformed JSON), 413 (over the body
 * limit) and 415 (a content type other than JSON or text).
 */
export const inputLimits = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const methods = [route.method].flat();
      if (!methods.some((method) => BODY_METHODS.has(method))) return;
      route.schema ??= {};
      const response = (route.schema.response ??= {}) as Record<number, unknown>;
      response[400] ??= ErrorBody;
      response[413] ??= BodyTooLargeReply;
      response[415] ??= UnsupportedMediaTypeReply;
    });

    app.addHook('preValidation', async (request) => {
      const problem =
        inputProblem(request.body, 'body') ?? (request.routeOptions.schema?.querystring ? inputProblem(request.query, 'querystring') : null);
      if (problem) throw badRequest('validation failed', { [problem.field]: [problem.message] });
    });
  },
  { name: 'input-limits' },
);
