import type { FastifyRequest } from 'fastify';

/**
 * The base of download links: `SHOP_DOWNLOAD_BASE_URL` when set (the public address behind a
 * proxy), else the address the request came to (`<protocol>://<Host>`).
 */
export function downloadBaseOf(request: FastifyRequest): string {
  const configured = request.server.downloadBaseUrl;
  return (configured ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
}

/** A download code's link: `{base}/downloads/<token>` (the public route of routes.ts). */
export const downloadLink = (base: string, token: string) => `${base}/downloads/${token}`;
