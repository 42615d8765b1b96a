import type { FastifyRequest } from 'fastify';

/** Public address of a stored image, on the host the request came to (the platform's own address). */
export function fileUrlFor(request: FastifyRequest, platformId: string): (fileId: string) => string {
  return (fileId) => `${request.protocol}://${request.host}/files/${platformId}/${fileId}`;
}
