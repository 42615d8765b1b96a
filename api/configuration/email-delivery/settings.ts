import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { openSecret, sealSecret } from '../../../adapters/secrets/secret-box.ts';
import type { IMailDeliveryProvider } from '../../../db/entities/index.ts';
import { platformOf } from '../../../db/repositories/access/platforms.ts';
import {
  lockMailDeliveryProvider,
  mailDeliveryProvider,
  mailDeliveryProviders,
  recordProviderTestMail,
  saveMailDeliveryProvider,
} from '../../../db/repositories/access/mail-delivery-providers.ts';
import type { MailEndpoints } from '../../../domain/shared/mail-endpoints.ts';
import { activeProvider, hasCredentials, isConfigured, PROVIDER_SHAPES, providerProblems, type MailProviderName } from '../../../domain/shared/mail-delivery.ts';
import { HttpError } from '../../shared/errors.ts';
import { checkProvider, type TestMail } from '../../../adapters/mail/provider-check.ts';
import { unprocessable } from '../../shared/validation-errors.ts';

type Json = Record<string, unknown>;

/** A provider's row as plain values (an unsaved provider reads as inactive and empty). */
interface Stored {
  active: boolean;
  fields: Record<string, string | null>;
  sealed: Record<string, string>;
}

const stored = (row: IMailDeliveryProvider | null): Stored =>
  row ? { active: row.active, fields: { ...row.fields }, sealed: { ...row.sealedSecrets } } : { active: false, fields: {}, sealed: {} };

/** Flat records compared whatever their key order (sealed secrets differ on every sealing, so a new secret is a change). */
const canonical = (record: Record<string, unknown>) => JSON.stringify(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
const sameStored = (a: Stored, b: Stored) => a.active === b.active && canonical(a.fields) === canonical(b.fields) && canonical(a.sealed) === canonical(b.sealed);

export type ProviderView = { configured: boolean; active: boolean } & Record<string, string | boolean | null>;

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

/** `GET /email_delivery`: the provider that sends and every provider's read shape. */
export async function readEmailDelivery(em: EntityManager) {
  const rows = await mailDeliveryProviders(em);
  const byName = (name: MailProviderName) => view(name, stored(rows.find((r) => r.provider === name) ?? null));
  return {
    active_provider: activeProvider(rows)?.provider ?? null,
    provider_a: byName('provider_a'),
    provider_b: byName('provider_b'),
    provider_c: byName('provider_c'),
  };
}

/** `GET /email_delivery/:provider`. */
export async function readProvider(em: EntityManager, name: MailProviderName): Promise<ProviderView> {
  return view(name, stored(await mailDeliveryProvider(em, name)));
}

/** What a save makes of the stored settings: the body's fields over the stored ones, the secrets it sent. */
interface Merged {
  active: boolean;
  fields: Record<string, string | null>;
  /** Secrets sent (non-empty), in plain text; the others keep their stored value. */
  sent: Record<string, string>;
  secretNames: string[];
}

function merge(name: MailProviderName, before: Stored, body: Json): Merged {
  const shape = PROVIDER_SHAPES[name];
  const fields = { ...before.fields };
  for (const field of shape.fields) if (body[field] !== undefined) fields[field] = body[field] as string | null;
  const sent: Record<string, string> = {};
  for (const secretName of shape.secrets) {
    const value = body[secretName];
    if (typeof value === 'string' && value !== '') sent[secretName] = value;
  }
  const active = typeof body.active === 'boolean' ? body.active : before.active;
  const secretNames = [...new Set([...Object.keys(before.sealed), ...Object.keys(sent)])];
  return { active, fields, sent, secretNames };
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

export interface SaveContext {
  platformId: string;
  endpoints: MailEndpoints;
  secretsKey: Buffer;
}

/** How often a save starts over when another save of the same provider came between its check and its write. */
const SAVE_ATTEMPTS = 3;

/**
 * Saves one provider (spec: conventions 1, rules 3 and 4). What is sent is set; what is left out
 * keeps its stored value, so `{active: false}` alone disables. A secret sent empty or left out
 * keeps the stored one. When the result has credentials and is active, or new secrets were sent,
 * the provider is checked first (provider_a: verification; provider_b: a test mail to its
 * simulator); a failed check is a 422 and nothing is saved.
 *
 * The check is a network call, made before any transaction: the row is then locked only to write.
 * The write happens only if the row still holds what the check was made against; when another
 * save came in between, this one starts over from the new state (re-checked), and after
 * `SAVE_ATTEMPTS` rounds answers 409.
 */
export async function saveProvider(em: EntityManager, name: MailProviderName, body: Json, context: SaveContext): Promise<ProviderView> {
  for (let attempt = 1; attempt <= SAVE_ATTEMPTS; attempt++) {
    const before = stored(await mailDeliveryProvider(em, name, { fresh: true }));
    const merged = merge(name, before, body);
    const problems = providerProblems(name, merged);
    if (Object.keys(problems).length > 0) throw unprocessable(problems);
    const testMail = await check(em, name, before, merged, context);

    const saved = await em.transactional(async (tx) => {
      const row = await lockMailDeliveryProvider(tx, context.platformId, name);
      if (!sameStored(stored(row), before)) return null;
      const sealedSecrets = { ...before.sealed, ...Object.fromEntries(Object.entries(merged.sent).map(([n, v]) => [n, sealSecret(v, context.secretsKey)])) };
      if (testMail) recordProviderTestMail(tx, context.platformId, name, { ...testMail.message, providerMessageId: testMail.providerMessageId });
      await saveMailDeliveryProvider(tx, row, { active: merged.active, fields: merged.fields, sealedSecrets });
      return view(name, stored(row));
    });
    if (saved) return saved;
  }
  throw new HttpError(409, `${name} was changed by another request while this one was checked; send it again`);
}

/** The provider check, when the saved result would send or new secrets came; undefined when none is due. */
async function check(em: EntityManager, name: MailProviderName, before: Stored, merged: Merged, context: SaveContext): Promise<TestMail | undefined> {
  if (!hasCredentials(name, merged) || !(merged.active || Object.keys(merged.sent).length > 0)) return undefined;
  const secrets: Record<string, string> = {};
  for (const secretName of PROVIDER_SHAPES[name].secrets) secrets[secretName] = merged.sent[secretName] ?? openStored(before.sealed, secretName, context.secretsKey);
  const platform = await platformOf(em, context.platformId);
  const result = await checkProvider({ provider: name, fields: merged.fields, secrets }, context.endpoints, { mailId: randomUUID(), platformTitle: platform.title });
  if (!result.ok) throw unprocessable(result.errors, `${name} did not accept these settings`);
  return result.testMail;
}
