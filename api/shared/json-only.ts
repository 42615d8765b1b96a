import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from './errors.ts';
import { unprocessable } from './validation-errors.ts';

const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isWrite(request: FastifyRequest): boolean {
  return WRITE_METHODS.has(request.method);
}

function isJsonMediaType(header: string | undefined): boolean {
  return header?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

function carriesBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export interface JsonBodiesOnlyOptions {
  /** Named in the 415 reply: "writes to the <interfaceName> must be sent as ...". */
  interfaceName: string;
}

/**
 * Writes must be `application/json` (415 otherwise) when they carry a body or the route takes one;
 * a body-less action such as `restore` may omit it. In the encapsulating interface an empty JSON
 * body is no body, and malformed JSON is a 422 like any other invalid input.
 */
export const jsonBodiesOnly = fp(
  async (app: FastifyInstance, { interfaceName }: JsonBodiesOnlyOptions) => {
    // A callback hook (a throw is the hook's error): a read passes without a promise (issue 26 item 4).
    app.addHook('onRequest', (request, _reply, done) => {
      if (isWrite(request)) {
        const takesBody = request.routeOptions.schema?.body !== undefined;
        if ((takesBody || carriesBody(request)) && !isJsonMediaType(request.headers['content-type'])) {
          throw new HttpError(415, `writes to the ${interfaceName} must be sent as Content-Type: application/json`);
        }
      }
      done();
    });

    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      const text = String(body);
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch (error) {
        done(unprocessable({ body: [`is not valid JSON: ${(error as Error).message}`] }, 'malformed JSON'), undefined);
      }
    });
  },
  { name: 'json-bodies-only' },
);
