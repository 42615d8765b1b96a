import type { FastifyRequest } from 'fastify';

/**
 * The public base address of the links a reply carries (`PUBLIC_URL`, DESIGN.md section 10): the
 * same for every request and for the worker's mails, so a link opens from where the buyer reads it.
 */
export function publicBaseOf(request: FastifyRequest): string {
  return request.server.publicUrl;
}
