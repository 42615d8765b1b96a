import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { secretsEqual } from '../shared/tokens.ts';
import { HttpError } from '../shared/errors.ts';

/**
 * Operator API authentication: `Authorization: Bearer <ADMIN_TOKEN>`; the scheme's name is matched
 * without case (RFC 7235 section 2.1), so `bearer` and `BEARER` are the same scheme.
 */
export const operatorAuth = fp(
  async (app: FastifyInstance, { adminToken }: { adminToken: string }) => {
    app.addHook('onRequest', async (request) => {
      const [, scheme, token] = /^(\S+) +(\S+)$/.exec((request.headers.authorization ?? '').trim()) ?? [];
      if (scheme?.toLowerCase() !== 'bearer' || !token || !secretsEqual(token, adminToken)) {
        throw new HttpError(401, 'missing or invalid operator token', { error: 'missing or invalid operator token' }, { 'www-authenticate': 'Bearer' });
      }
    });
  },
  { name: 'operator-auth' },
);
