import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** The OpenAPI document, generated from the same zod schemas that validate; served at /docs. */
export const openapiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Course platform and shop backend',
          version: '0.1.0',
          description:
            'Access interface (`/api/...`, `X-API-KEY` with the platform API key), configuration interface ' +
            '(`/api/v1/configuration/...`, `X-API-KEY` with a configuration key; validation failures are 422) and operator API ' +
            '(`/admin/v1/...`, `Authorization: Bearer <ADMIN_TOKEN>`). Background work runs as Temporal workflows. ' +
            'Error bodies are `{error}`; validation errors add `errors: {field: [messages]}`.',
        },
        components: {
          securitySchemes: {
            apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
            operator: { type: 'http', scheme: 'bearer' },
            configurationKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY', description: 'a configuration key (`ck_...`) with scopes' },
          },
        },
      },
      transform: jsonSchemaTransform,
      // Puts the schemas with an id (`Error`, `ValidationError`, ...) under components.schemas, where the $refs point.
      transformObject: jsonSchemaTransformObject,
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'openapi' },
);
