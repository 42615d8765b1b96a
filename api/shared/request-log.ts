import type { FastifyRequest } from 'fastify';
import { urlForLog } from '../../domain/shared/personal-data.ts';

/** Fastify's request line (method, url, host, client address and port) with the e-mails of the query string replaced (issue 29). */
export function requestForLog(request: FastifyRequest) {
  return { method: request.method, url: urlForLog(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
}
