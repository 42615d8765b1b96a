import type { FastifyRequest } from 'fastify';
import { publicBaseOf } from './public-base.ts';

/** Public address of a stored image of the platform (`PUBLIC_URL`). */
export function fileUrlFor(request: FastifyRequest, platformId: string): (fileId: string) => string {
  const base = publicBaseOf(request);
  return (fileId) => `${base}/files/${platformId}/${fileId}`;
}
