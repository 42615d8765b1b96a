import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { openSecret, sealSecret } from '../../db/secret-box.ts';
import type { MailEndpoints } from '../../activities/mail/transports/endpoints.ts';
import { checkProvider, type TestMail } from '../../activities/mail/transports/provider-check.ts';
import { MailDeliveryProvider, MailLogEntry, Platform, type IMailDeliveryProvider } from '../../db/entities/index.ts';
import {
  activeProvider,
  hasCredentials,
  isConfigured,
  MAIL_PROVIDERS,
  PROVIDER_SHAPES,
  providerProblems,
  type MailProviderName,
} from '../../domain/shared/mail-delivery.ts';
import { notFound } from '../shared/errors.ts';
import { ErrorBody, ValidationErrorBody } from '../shared/schemas.ts';
import { configurationKeyOf } from './auth.ts';
import { unprocessable } from '../shared/validation-errors.ts';
import { data } from './schemas.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Provider endpoints for the checks made on save (activities/mail-transports/endpoints.ts). */
    mailEndpoints: MailEndpoints;
  }
}

// ----- bodies and replies

const text = z.string().trim().max(255);
/** A plain text field; `null` or `""` clears it. */
const plain = text.transform((v) => (v === '' ? null : v)).nullable();
const email = z.union([z.literal('').transform(() => null), z.email().max(254)]).nullable();
const region = z
  .union([z.literal('').transform(() => null), z.string().trim().regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/, 'must be a region such as eu-west-1')])
  .nullable();
/** Write-only; `""` (or leaving it out) keeps the stored value; `null` is refused (rule 4). */
const secret = z
  .string({ error: (issue) => (issue.input === null ? 'cannot be cleared; send active: false to disable the provider' : 'must be a string') })
  .trim()
  .max(1024);

const BODIES = {
  provider_a: z.strictObject({ active: z.boolean(), smtp_account: plain, email, app_key: secret, secret_key: secret }).partial(),
  provider_b: z.strictObject({ active: z.boolean(), region, email, display_name: plain, smtp_username: secret, smtp_password: secret }).partial(),
  provider_c: z.strictObject({ active: z.boolean(), smtp_account: plain, email, application_key: secret, authorization_key: secret }).partial(),
} satisfies Record<MailProviderName, z.ZodType>;

function replyShape(name: MailProviderName) {
  const { fields, secrets } = PROVIDER_SHAPES[name];
  return z
    .object({
      configured: z.boolean().describe('credentials stored and the fields needed to send set'),
      active: z.boolean(),
      ...Object.fromEntries(fields.map((f) => [f, z.string().nullable()])),
      ...Object.fromEntries(secrets.map((s) => [`${s}_configured`, z.boolean()])),
    })
    .meta({ id: `EmailDelivery_${name}` });
}

const REPLIES = { provider_a: replyShape('provider_a'), provider_b: replyShape('provider_b'), provider_c: replyShape('provider_c') };
const DeliveryReply = z.object({
  active_provider: z.enum(MAIL_PROVIDERS).nullable().describe('the provider that sends: the first active in the order provider_a, provider_b, provider_c; null: the platform default'),
  ...REPLIES,
});

type Json = Record<string, unknown>;

// ----- reading

interface Stored {
  active: boolean;
  fields: Record<string, string | null>;
  sealed: Record<string, string>;
}

const stored = (row: IMailDeliveryProvider | null): Stored =>
  row ? { active: row.active, fields: { ...row.fields }, sealed: { ...row.sealedSecrets } } : { active: false, fields: {}, sealed: {} };

type ProviderView = { configured: boolean; active: boolean } & Record<string, string | boolean | null>;

/** The read shape: plain fields as stored, `<secret>_configured` flags, never a secret. */
function view(name: MailProviderName, s: Stored): ProviderView {
  const { fields, secrets } = PROVIDER_SHAPES[name];
  const secretNames = Object.keys(s.sealed);
  return {
    configured: isConfigured(name, { active: s.active, fields: s.fields, secretNames }),
    active: s.active,
    ...Object.fromEntries(fields.map((f) => [f, s.fields[f] ?? null])),
    ...Object.fromEntries(secrets.map((secretName) => [`${secretName}_configured`, secretNames.includes(secretName)])),
  };
}

async function readAll(em: EntityManager) {
  const rows = await em.find(MailDeliveryProvider, {});
  const byName = (name: MailProviderName) => view(name, stored(rows.find((r) => r.provider === name) ?? null));
  return {
    active_provider: activeProvider(rows)?.provider ?? null,
    provider_a: byName('provider_a'),
    provider_b: byName('provider_b'),
    provider_c: byName('provider_c'),
  };
}

// ----- saving

/**
 * Saves one provider (spec: conventions 1, rules 3 and 4). What is sent is set; what is left out
 * keeps its stored value, so `{active: false}` alone disables. A secret sent empty or left out
 * keeps the stored one. When the result has credentials and is active, or new secrets were sent,
 * the provider is checked first (provider_a: verification; provider_b: a test mail to its
 * simulator); a failed check is a 422 and nothing is saved.
 */
async function save(em: EntityManager, platformId: string, name: MailProviderName, body: Json, endpoints: MailEndpoints, key: Buffer): Promise<ProviderView> {
  return em.transactional(async (tx) => {
    // The row is created (or found) and locked, so concurrent saves of one provider take turns.
    await tx.execute(
      `insert into mail_delivery_providers (id, platform_id, provider, active, fields, sealed_secrets, created_at, updated_at)
       values (?, ?, ?, false, '{}', '{}', now(), now()) on conflict (platform_id, provider) do nothing`,
      [randomUUID(), platformId, name],
    );
    const row = await tx.findOneOrFail(MailDeliveryProvider, { provider: name }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const shape = PROVIDER_SHAPES[name];
    const before = stored(row);

    const fields = { ...before.fields };
    for (const field of shape.fields) if (body[field] !== undefined) fields[field] = body[field] as string | null;
    const sent: Record<string, string> = {};
    for (const secretName of shape.secrets) {
      const value = body[secretName];
      if (typeof value === 'string' && value !== '') sent[secretName] = value;
    }
    const active = typeof body.active === 'boolean' ? body.active : before.active;
    const secretNames = [...new Set([...Object.keys(before.sealed), ...Object.keys(sent)])];
    const problems = providerProblems(name, { active, fields, secretNames });
    if (Object.keys(problems).length > 0) throw unprocessable(problems);

    let testMail: TestMail | undefined;
    if (hasCredentials(name, { secretNames }) && (active || Object.keys(sent).length > 0)) {
      const secrets: Record<string, string> = {};
      for (const secretName of shape.secrets) secrets[secretName] = sent[secretName] ?? openStored(before.sealed, secretName, key);
      const platform = await tx.findOneOrFail(Platform, platformId);
      const check = await checkProvider({ provider: name, fields, secrets }, endpoints, { mailId: randomUUID(), platformTitle: platform.title });
      if (!check.ok) throw unprocessable(check.errors, `${name} did not accept these settings`);
      testMail = check.testMail;
    }

    row.active = active;
    row.fields = fields;
    row.sealedSecrets = { ...before.sealed, ...Object.fromEntries(Object.entries(sent).map(([n, v]) => [n, sealSecret(v, key)])) };
    if (testMail) recordTestMail(tx, platformId, name, testMail);
    await tx.flush();
    return view(name, stored(row));
  });
}

/** A stored secret, opened for a check; one sealed under another `SECRETS_KEY` must be sent again. */
function openStored(sealed: Record<string, string>, secretName: string, key: Buffer): string {
  const value = sealed[secretName];
  if (value === undefined) throw unprocessable({ [secretName]: ['is required'] });
  try {
    return openSecret(value, key);
  } catch {
    throw unprocessable({ [secretName]: ['was stored under another SECRETS_KEY; send it again'] });
  }
}

/** The simulator test mail goes to the mail log like any other mail, already delivered. */
function recordTestMail(em: EntityManager, platformId: string, provider: MailProviderName, { message, providerMessageId }: TestMail): void {
  const now = new Date();
  em.create(MailLogEntry, {
    id: message.id,
    platform: platformId,
    to: message.to,
    template: 'provider_test',
    subject: message.subject,
    html: message.html,
    dedupeKey: `provider-test/${provider}/${message.id}`,
    sentAt: now,
    senderName: message.from.name,
    senderEmail: message.from.address,
    status: 'sent',
    provider,
    providerMessageId,
    attempts: 1,
    deliveredAt: now,
  });
}

// ----- routes

const tags = ['configuration'];
const security = [{ configurationKey: [] }];
const readErrors = { 401: ErrorBody, 403: ErrorBody };
const writeErrors = { ...readErrors, 404: ErrorBody, 415: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };

const PROVIDER_NOTES: Record<MailProviderName, string> = {
  provider_a: 'Secrets app_key and secret_key are verified with provider_a on save; a refused or unverifiable pair is a 422 and nothing is saved.',
  provider_b: "Saving sends a test mail to provider_b's simulator address (through the region's SMTP host); if it cannot be sent, the reply is 422 and nothing is saved.",
  provider_c: 'Secrets application_key and authorization_key are stored as sent (provider_c has no verification call).',
};

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
        tags,
        security,
        description: 'Mail delivery settings: the provider that sends and each provider with its plain fields and `<secret>_configured` flags. Secrets are never returned.',
        response: { 200: data(DeliveryReply), ...readErrors },
      },
    },
    async (request) => ({ data: await readAll(request.em) }),
  );

  for (const name of MAIL_PROVIDERS) {
    app.get(
      `/email_delivery/${name}`,
      { config: { scope: 'read' }, schema: { tags, security, description: `${name}: plain fields and \`<secret>_configured\` flags.`, response: { 200: data(REPLIES[name]), ...readErrors } } },
      async (request) => ({ data: view(name, stored(await request.em.findOne(MailDeliveryProvider, { provider: name }))) }),
    );

    app.put(
      `/email_delivery/${name}`,
      {
        config: { scope: 'write_config' },
        schema: {
          tags,
          security,
          description:
            `Saves ${name}; replies with its read shape. Fields sent are set, fields left out keep their stored values; a secret sent empty or left out keeps the stored one and cannot be cleared (\`null\` is a 422): send \`active: false\` to disable the provider. ` +
            `An active provider needs its secrets and its email${name === 'provider_b' ? ' and region' : ''}. ${PROVIDER_NOTES[name]}`,
          body: BODIES[name],
          response: { 200: data(REPLIES[name]), ...writeErrors },
        },
      },
      async (request) => {
        const { platformId } = configurationKeyOf(request);
        const body: Json = request.body;
        return { data: await save(request.em, platformId, name, body, app.mailEndpoints, app.secretsKey) };
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
