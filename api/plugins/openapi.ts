import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The OpenAPI document, generated from the same zod schemas that validate; served at /docs. */
export const openapiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Course platform and shop backend',
          version: '0.1.0',
          description:
            'Access interface (`/api/...`, `X-API-KEY` with the platform API key) and operator API ' +
            '(`/admin/v1/...`, `Authorization: Bearer <ADMIN_TOKEN>`). Background work runs as Temporal workflows. ' +
            'Error bodies are `{error}`; validation errors add `errors: {field: [messages]}`.',
        },
        components: {
          securitySchemes: {
            apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
            operator: { type: 'http', scheme: 'bearer' },
          },
        },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'openapi' },
);
