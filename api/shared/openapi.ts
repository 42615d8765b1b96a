import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { audienceDocument, completeDocument, type OpenApiDocument } from './openapi/documents.ts';
import { AUDIENCES, SECURITY_SCHEMES } from './openapi/interfaces.ts';
import { operationTransform } from './openapi/operations.ts';

export interface OpenApiOptions {
  /** `PUBLIC_API_URL`: where integrators reach the API, the document's `servers`. */
  publicUrl: string;
}

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate: the whole at
 * `/docs/json` (and the interactive page at `/docs`), one per audience at `/docs/<audience>.json`
 * (access, configuration, shop, storefront, admin). Tags, security and the common error replies
 * come from each route's interface (api/shared/openapi/); a route declares its `operationId`,
 * `summary` and own replies.
 */
export const openapiPlugin = fp(
  async (app: FastifyInstance, { publicUrl }: OpenApiOptions) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Course platform and shop backend',
          version: '0.1.0',
          license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
          description:
            'Access interface (`/api/...`, `X-API-KEY` with the platform API key), platform configuration interface ' +
            '(`/api/v1/configuration/...`, `X-API-KEY` with a configuration key), shop API (`/api/v1/...` and the shop\'s ' +
            'configuration resources under `/api/v1/configuration/...`, `X-API-KEY` with a shop key and its scopes), storefront ' +
            '(`/store/v1/{subdomain}/...`, no key) and operator API (`/admin/v1/...`, `Authorization: Bearer <ADMIN_TOKEN>`). ' +
            'Error bodies are `{error}`; validation errors add `errors: {field: [messages]}`. One document per audience: ' +
            AUDIENCES.map((a) => `\`/docs/${a}.json\``).join(', ') + '.',
        },
        servers: [{ url: publicUrl }],
        components: { securitySchemes: structuredClone(SECURITY_SCHEMES) as never },
      },
      transform: operationTransform,
      // The schemas with an id (`Error`, `ValidationError`, ...) go under components.schemas, where the $refs point.
      transformObject: (input) => completeDocument(jsonSchemaTransformObject(input) as unknown as OpenApiDocument) as never,
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });

    const documents = new Map<string, OpenApiDocument>();
    for (const audience of AUDIENCES) {
      app.get(`/docs/${audience}.json`, { schema: { hide: true } }, async () => {
        if (!documents.has(audience)) documents.set(audience, audienceDocument(app.swagger() as unknown as OpenApiDocument, audience));
        return documents.get(audience);
      });
    }
  },
  { name: 'openapi' },
);
