import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { secretsEqual } from '../shared/tokens.ts';
import { HttpError } from '../shared/errors.ts';

/** Operator API authentication: `Authorization: Bearer <ADMIN_TOKEN>`. */
export const operatorAuth = fp(
  async (app: FastifyInstance, { adminToken }: { adminToken: string }) => {
    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization ?? '';
      const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
      if (!token || !secretsEqual(token, adminToken)) {
        throw new HttpError(401, 'missing or invalid operator token', { error: 'missing or invalid operator token' }, { 'www-authenticate': 'Bearer' });
      }
    });
  },
  { name: 'operator-auth' },
);
