import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MAIL_PROVIDERS } from '../../../domain/shared/mail-delivery.ts';
import { notFound } from '../../shared/errors.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { configurationKeyOf } from '../auth.ts';
import { EmailDeliveryReply, PROVIDER_NOTES, ProviderBodies, ProviderReplies } from './schemas.ts';
import { readEmailDelivery, readProvider, saveProvider } from './settings.ts';

const readErrors = { 401: ErrorBody, 403: ErrorBody };
const writeErrors = { ...readErrors, 404: ErrorBody, 409: ErrorBody, 415: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };

/**
 * `GET /email_delivery`, `GET` and `PUT /email_delivery/:provider` (scopes `read` and
 * `write_config`). Each provider has its own route, so the OpenAPI document shows its fields;
 * any other `:provider` is a 404.
 */
export const emailDeliveryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/email_delivery',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'configuration.email_delivery.read',
        summary: 'Reads the mail delivery settings',
        description: 'Mail delivery settings: the provider that sends and each provider with its plain fields and `<secret>_configured` flags. Secrets are never returned.',
        response: { 200: data(EmailDeliveryReply), ...readErrors },
      },
    },
    async (request) => ({ data: await readEmailDelivery(request.em) }),
  );

  for (const name of MAIL_PROVIDERS) {
    app.get(
      `/email_delivery/${name}`,
      { config: { scope: 'read' }, schema: { operationId: `configuration.email_delivery.${name}.read`, summary: `Reads the ${name} settings`, description: `${name}: plain fields and \`<secret>_configured\` flags.`, response: { 200: data(ProviderReplies[name]), ...readErrors } } },
      async (request) => ({ data: await readProvider(request.em, name) }),
    );

    app.put(
      `/email_delivery/${name}`,
      {
        config: { scope: 'write_config' },
        schema: {
          operationId: `configuration.email_delivery.${name}.replace`,
          summary: `Saves the ${name} settings`,
          description:
            `Saves ${name}; replies with its read shape. Fields sent are set, fields left out keep their stored values; a secret sent empty or left out keeps the stored one and cannot be cleared (\`null\` is a 422): send \`active: false\` to disable the provider. ` +
            `An active provider needs its secrets and its email${name === 'provider_b' ? ' and region' : ''}. ${PROVIDER_NOTES[name]} ` +
            'A 409 means another save of this provider kept changing it while this one was checked; send it again.',
          body: ProviderBodies[name],
          response: { 200: data(ProviderReplies[name]), ...writeErrors },
        },
      },
      async (request) => {
        const { platformId } = configurationKeyOf(request);
        return { data: await saveProvider(request.em, name, request.body, { platformId, endpoints: app.mailEndpoints, secretsKey: app.secretsKey }) };
      },
    );
  }

  // Any other provider name: 404 after the key and its scope were checked.
  const unknownProvider = async () => {
    throw notFound('mail delivery provider (provider_a, provider_b or provider_c)');
  };
  app.get('/email_delivery/:provider', { config: { scope: 'read' }, schema: { hide: true } }, unknownProvider);
  app.put('/email_delivery/:provider', { config: { scope: 'write_config' }, schema: { hide: true } }, unknownProvider);
};
