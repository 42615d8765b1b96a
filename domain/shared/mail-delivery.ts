/**
 * Mail delivery providers (spec: Mail delivery providers, configuration rules 3 and 4): which
 * fields each has, which one sends, and how a delivered mail is named. Pure rules, shared by the
 * configuration interface, the delivery activity and the tests.
 */

/** In this order: when several are active, the first active one sends (rule 3). */
export const MAIL_PROVIDERS = ['provider_a', 'provider_b', 'provider_c'] as const;
export type MailProviderName = (typeof MAIL_PROVIDERS)[number];

/** Who delivered a mail: a provider, or the platform's own default transport. */
export type MailSender = MailProviderName | 'platform';

/**
 * Delivery status in the mail log: `pending` (recorded, not yet handed over), `sending` (an attempt
 * has claimed it and is talking to the provider), `sent` (accepted by the provider or SMTP relay),
 * `failed` (the last attempt failed; retried until the attempts run out), `recorded` (no transport
 * is configured: the mail is only recorded).
 */
export type MailStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'recorded';

/**
 * The time limit of one delivery attempt (the activity's start-to-close timeout): a `sending`
 * claim older than this belongs to an attempt that is gone, and the next attempt takes it over.
 */
export const MAIL_DELIVERY_ATTEMPT_TIMEOUT_MS = 2 * 60_000;

/**
 * A running attempt renews its claim on the mail (and heartbeats) every few seconds; a claim not
 * renewed for this long belongs to an attempt that is gone (a killed worker) and may be taken over.
 */
export const MAIL_CLAIM_LEASE_MS = 10_000;

export interface ProviderShape {
  /** Plain fields besides `active`, returned as stored. */
  fields: readonly string[];
  /** Write-only secrets; reads return `<secret>_configured`. */
  secrets: readonly string[];
  /** Plain fields the provider needs before it can be active. */
  requiredToActivate: readonly string[];
}

export const PROVIDER_SHAPES: Record<MailProviderName, ProviderShape> = {
  provider_a: { fields: ['smtp_account', 'email'], secrets: ['app_key', 'secret_key'], requiredToActivate: ['email'] },
  provider_b: { fields: ['region', 'email', 'display_name'], secrets: ['smtp_username', 'smtp_password'], requiredToActivate: ['region', 'email'] },
  provider_c: { fields: ['smtp_account', 'email'], secrets: ['application_key', 'authorization_key'], requiredToActivate: ['email'] },
};

export function isMailProvider(name: string): name is MailProviderName {
  return (MAIL_PROVIDERS as readonly string[]).includes(name);
}

/** The provider that sends: the first active one in the order a, b, c, or null (rule 3). */
export function activeProvider<T extends { provider: string; active: boolean }>(settings: readonly T[]): (T & { provider: MailProviderName }) | null {
  for (const name of MAIL_PROVIDERS) {
    const found = settings.find((s) => s.provider === name && s.active);
    if (found) return found as T & { provider: MailProviderName };
  }
  return null;
}

export interface StoredProvider {
  active: boolean;
  fields: Record<string, string | null>;
  /** Names of the secrets stored. */
  secretNames: readonly string[];
}

/** Every secret of the provider is stored: it has credentials to send with. */
export function hasCredentials(name: MailProviderName, stored: Pick<StoredProvider, 'secretNames'>): boolean {
  return PROVIDER_SHAPES[name].secrets.every((s) => stored.secretNames.includes(s));
}

/** `configured`: credentials stored and the fields needed to send set, so `active: true` would be accepted. */
export function isConfigured(name: MailProviderName, stored: StoredProvider): boolean {
  return hasCredentials(name, stored) && PROVIDER_SHAPES[name].requiredToActivate.every((f) => Boolean(stored.fields[f]));
}

/**
 * Why a provider as it would be saved is refused, by field (422): an active provider needs its
 * credentials and sending fields; credentials are stored complete or not at all.
 */
export function providerProblems(name: MailProviderName, result: StoredProvider): Record<string, string[]> {
  const shape = PROVIDER_SHAPES[name];
  const problems: Record<string, string[]> = {};
  const missingSecrets = shape.secrets.filter((s) => !result.secretNames.includes(s));
  const someSecrets = missingSecrets.length < shape.secrets.length;
  for (const secret of missingSecrets) {
    if (result.active) problems[secret] = ['is required while the provider is active'];
    else if (someSecrets) problems[secret] = [`is required together with ${shape.secrets.filter((s) => s !== secret).join(', ')}`];
  }
  if (result.active) {
    for (const field of shape.requiredToActivate) if (!result.fields[field]) problems[field] = ['is required while the provider is active'];
  }
  return problems;
}

/**
 * The `Message-ID` of a delivered mail, derived from its mail log id: every attempt at the same
 * mail carries the same id, so a provider or a receiver can recognise a repeat.
 */
export function messageIdFor(mailId: string, fromAddress: string): string {
  const domain = fromAddress.split('@')[1] || 'localhost';
  return `<${mailId}@${domain}>`;
}

export interface SenderChoice {
  /** The provider's own sending address and name (`email`, `display_name`), when it has them. */
  provider?: { email?: string | null; name?: string | null } | null;
  /** The template's own sender. */
  template: { email: string | null; name: string | null };
  /** The platform's `default_email_sender`. */
  platform: { email: string | null; name: string | null };
  platformTitle: string;
  /** `DEFAULT_MAIL_FROM`. */
  fallbackAddress: string;
}

export interface Sender {
  from: { address: string; name: string };
  replyTo: string | null;
}

/**
 * Who a mail is from. A provider sends from its own account address (the one it verified); the
 * default transport from the template's sender, the platform's default sender, or
 * `DEFAULT_MAIL_FROM`. The name is the template's, the provider's display name, the platform's
 * default sender name, or the platform title. When the template or platform asks for another
 * address than the one sending, replies go there (`Reply-To`).
 */
export function chooseSender(choice: SenderChoice): Sender {
  const wanted = choice.template.email ?? choice.platform.email;
  const address = choice.provider?.email ?? wanted ?? choice.fallbackAddress;
  const name = choice.template.name ?? choice.provider?.name ?? choice.platform.name ?? choice.platformTitle;
  return { from: { address, name }, replyTo: wanted && wanted.toLowerCase() !== address.toLowerCase() ? wanted : null };
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };

/**
 * The plain-text part sent beside the HTML: tags dropped, block ends as line breaks, a link as
 * `text (address)` so the login link survives in mail clients that show text only.
 */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<a\s[^>]*href\s*=\s*["']([^"']*)["'][^>]*>([\s\S]*?)<\/a>/gi, (_m, href: string, label: string) => {
      const text = label.replace(/<[^>]+>/g, '').trim();
      return text && text !== href ? `${text} (${href})` : href;
    })
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
