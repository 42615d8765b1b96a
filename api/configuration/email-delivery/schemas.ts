import { z } from 'zod';
import { MAIL_PROVIDERS, PROVIDER_SHAPES, type MailProviderName } from '../../../domain/shared/mail-delivery.ts';

/** Bodies and replies of `/email_delivery` (spec: Mail delivery providers). */

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

export const ProviderBodies = {
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

export const ProviderReplies = { provider_a: replyShape('provider_a'), provider_b: replyShape('provider_b'), provider_c: replyShape('provider_c') };
export const EmailDeliveryReply = z.object({
  active_provider: z.enum(MAIL_PROVIDERS).nullable().describe('the provider that sends: the first active in the order provider_a, provider_b, provider_c; null: the platform default'),
  ...ProviderReplies,
});

export const PROVIDER_NOTES: Record<MailProviderName, string> = {
  provider_a: 'Secrets app_key and secret_key are verified with provider_a on save; a refused or unverifiable pair is a 422 and nothing is saved.',
  provider_b: "Saving sends a test mail to provider_b's simulator address (through the region's SMTP host); if it cannot be sent, the reply is 422 and nothing is saved.",
  provider_c: 'Secrets application_key and authorization_key are stored as sent (provider_c has no verification call).',
};
