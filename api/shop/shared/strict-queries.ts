import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';

/**
 * One rule for the query strings of the shop's lists and reports (docs/decisions/, issue 22):
 * a parameter the route does not know is refused, 422 naming `querystring.<name>`, so a typo
 * (`?stauts=3`) never widens a list or a report silently. Applied here to every route of the
 * interface, so a new list cannot forget it.
 */
export const strictQueries: FastifyPluginAsync = fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      const query: unknown = route.schema?.querystring;
      if (route.schema && query instanceof z.ZodObject) route.schema.querystring = query.strict();
    });
  },
  { name: 'shop-strict-queries' },
);
