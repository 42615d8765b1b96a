import type { FastifyRequest } from 'fastify';

/** The public base address of the links a reply carries: the address the request came to. */
export function publicBaseOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
