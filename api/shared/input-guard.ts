import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { HttpError } from './errors.ts';
import { ErrorBody } from './schemas.ts';
import { InputRefused } from './validation-errors.ts';

/** Deepest nesting a body may have; the deepest the access interface reads is an order's `file_keys` member (7). */
export const MAX_INPUT_DEPTH = 32;

/** What PostgreSQL cannot store: NUL (text and jsonb) and unpaired UTF-16 surrogates (jsonb; text would keep U+FFFD). */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_TEXT = 'must not contain NUL characters or unpaired UTF-16 surrogates';

export interface InputProblem {
  /** Where, below the part of the request (`['footer', 'content']`); empty for the part itself. */
  path: string[];
  message: string;
}

/** Arrays and the objects the JSON, query and path parsers make (some without a prototype); never bytes or a stream. */
const isWalkable = (value: object) => !ArrayBuffer.isView(value) && !(value instanceof ArrayBuffer) && typeof (value as { pipe?: unknown }).pipe !== 'function';

/**
 * The first place in a parsed body, query or set of path parameters that no handler should see:
 * nesting deeper than `maxDepth`, or a string or key PostgreSQL cannot store. Walks without
 * recursion, so any depth the JSON parser accepted is safe here.
 */
export function inputProblem(value: unknown, maxDepth = MAX_INPUT_DEPTH): InputProblem | null {
  const pending: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value: current, path } = next;
    if (typeof current === 'string') {
      if (UNSTORABLE.test(current)) return { path, message: UNSTORABLE_TEXT };
      continue;
    }
    if (typeof current !== 'object' || current === null || !isWalkable(current)) continue;
    if (path.length >= maxDepth) return { path, message: `is nested too deeply (at most ${maxDepth} levels)` };
    for (const [key, member] of Object.entries(current)) {
      if (UNSTORABLE.test(key)) return { path, message: `has a key that ${UNSTORABLE_TEXT}` };
      pending.push({ value: member, path: [...path, key] });
    }
  }
  return null;
}

/** A field path as the validation reply names it, cut to a readable length. */
const instancePath = (path: readonly string[]) => {
  const joined = path.map((segment) => `/${segment}`).join('');
  return joined.length > 200 ? `${joined.slice(0, 200)}...` : joined;
};

const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// No schema ids: each description then becomes the reply's description in the OpenAPI document.
const BodyTooLargeReply = z.object({ error: z.string() }).describe('The body is over the 1 MB limit.');
const UnsupportedMediaTypeReply = z.object({ error: z.string() }).describe('The body is neither JSON nor plain text.');

/**
 * The one input guard, registered once for every route of every interface (api/app.ts): path
 * parameters, query and body nested too deeply or holding text PostgreSQL cannot store (NUL, an
 * unpaired surrogate) are refused before the route's own validation, so no such value reaches a
 * handler, a query or a stored row (where a lone surrogate would silently become U+FFFD). A body
 * or query refusal is a validation failure answered in the interface's style, as a schema
 * failure is (validation-errors.ts): 400 with qualified names on the access interface and the
 * operator's platform routes, 422 `{error, errors}` on the configuration and shop interfaces and
 * the operator's shop routes. A path parameter that cannot be stored is a 404 `{error}` naming
 * it, as every interface answers an id that names nothing. Routes that parse a body also document
 * the replies of the body parser: 400 (malformed JSON), 413 (over the body limit) and 415 (a
 * content type other than JSON or text).
 */
export const inputGuard = fp(
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

    // A callback hook (a throw is the hook's error): no promise per request (issue 26 item 4).
    app.addHook('preValidation', (request, _reply, done) => {
      // A path parameter is an identifier: one that cannot be stored names no row.
      const param = inputProblem(request.params);
      if (param) throw new HttpError(404, `not found: the path parameter ${param.path[0] ?? ''} ${param.message}`.slice(0, 250));
      for (const [context, value] of [
        ['querystring', request.query],
        ['body', request.body],
      ] as const) {
        const problem = inputProblem(value);
        if (problem) throw new InputRefused(context, [{ instancePath: instancePath(problem.path), message: problem.message }]);
      }
      done();
    });
  },
  { name: 'input-guard' },
);
