/**
 * Operator CLI: `npm run admin -- <command> [arguments] [--options]`, a thin client of the
 * operator API (`/admin/v1`, DESIGN.md section 5). It talks to API_URL (default
 * http://127.0.0.1:$PORT) with ADMIN_TOKEN, or the token `npm start` saved in .data/admin-token.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DATA_DIR } from './stack/postgres.ts';
import { referenceCommands, referenceOptions } from './admin/reference-commands.ts';

interface Command {
  usage: string;
  /** Turns positionals and options into the request. */
  request(args: string[], options: Options): { method: string; path: string; body?: unknown };
}

type Options = Record<string, string | string[] | boolean | undefined>;

const platformPath = (args: string[], rest = '') => `/platforms/${need(args[0], 'platform_id')}${rest}`;
const shopPath = (args: string[], rest = '') => `/shops/${need(args[0], 'shop_id')}${rest}`;

function need(value: string | undefined, name: string): string {
  if (!value) throw new Error(`missing ${name}`);
  return value;
}

/** `--item 12:2:30.00` -> product 12, quantity 2, the buyer's price 30.00 (quantity and price optional). */
function parseItem(spec: string) {
  const [productId, quantity, price] = spec.split(':');
  return { product_id: Number(need(productId, 'product id')), ...(quantity ? { quantity: Number(quantity) } : {}), ...(price ? { price } : {}) };
}

/** `--attribute gift=yes` -> `{name: 'gift', value: 'yes'}` (the value may hold further `=`). */
function parseAttribute(spec: string) {
  const at = spec.indexOf('=');
  if (at <= 0) throw new Error(`--attribute ${spec}: expected name=value`);
  return { name: spec.slice(0, at), value: spec.slice(at + 1) };
}

/** A secret read from the environment, never from the command line (shell history, process list). */
function secretFromEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} in the environment (secrets are not taken as arguments)`);
  return value;
}

/** `--product-tag 12=atlas-buyer` (repeatable) -> `{"12": ["atlas-buyer"]}`. */
function parseProductTags(specs: string[] = []): Record<string, string[]> {
  const tags: Record<string, string[]> = {};
  for (const spec of specs) {
    const at = spec.indexOf('=');
    if (at <= 0) throw new Error(`--product-tag ${spec}: expected product_id=tag`);
    (tags[spec.slice(0, at)] ??= []).push(spec.slice(at + 1));
  }
  return tags;
}

const optionalNumber = (value: unknown) => (value === undefined ? undefined : Number(value));

/** `--section "Basics:0:Intro|First steps"` -> a section at level 0 with two lessons. */
function parseSection(spec: string) {
  const [title, level = '0', lessons = ''] = spec.split(':');
  return { title: need(title, 'section title'), access_level: Number(level), lessons: lessons.split('|').filter(Boolean).map((t) => ({ title: t })) };
}

const commands: Record<string, Command> = {
  'create-platform': {
    usage: 'create-platform <subdomain> <title> [--admin-email e]',
    request: (args, o) => ({ method: 'POST', path: '/platforms', body: { subdomain: need(args[0], 'subdomain'), title: need(args[1], 'title'), admin_email: o['admin-email'] } }),
  },
  'regenerate-key': {
    usage: 'regenerate-key <platform_id>',
    request: (args) => ({ method: 'POST', path: platformPath(args, '/api_key') }),
  },
  'allowed-domains': {
    usage: 'allowed-domains <platform_id> [domain ...]',
    request: (args) => ({ method: 'PUT', path: platformPath(args, '/allowed_domains'), body: { domains: args.slice(1) } }),
  },
  'create-course': {
    usage: 'create-course <platform_id> <title> [--slug s] [--inactive] [--section "Title:level:Lesson|Lesson"]...',
    request: (args, o) => ({
      method: 'POST',
      path: platformPath(args, '/courses'),
      body: { title: need(args[1], 'title'), slug: o.slug, active: !o.inactive, sections: ((o.section as string[] | undefined) ?? []).map(parseSection) },
    }),
  },
  'update-course': {
    usage: 'update-course <platform_id> <course_id> [--title t] [--active true|false]',
    request: (args, o) => ({
      method: 'PATCH',
      path: platformPath(args, `/courses/${need(args[1], 'course_id')}`),
      body: { title: o.title, active: o.active === undefined ? undefined : o.active === 'true' },
    }),
  },
  'create-audiobook': {
    usage: 'create-audiobook <platform_id> <title> [--inactive]',
    request: (args, o) => ({ method: 'POST', path: platformPath(args, '/audiobooks'), body: { title: need(args[1], 'title'), active: !o.inactive } }),
  },
  participant: {
    usage: 'participant <platform_id> <email>',
    request: (args) => ({ method: 'GET', path: platformPath(args, `/participants?email=${encodeURIComponent(need(args[1], 'email'))}`) }),
  },
  order: {
    usage: 'order <platform_id> <order_id>',
    request: (args) => ({ method: 'GET', path: platformPath(args, `/orders/${need(args[1], 'order_id')}`) }),
  },
  emails: {
    usage: 'emails <platform_id> [--to email]',
    request: (args, o) => ({ method: 'GET', path: platformPath(args, `/emails${o.to ? `?to=${encodeURIComponent(String(o.to))}` : ''}`) }),
  },
  'create-config-key': {
    usage: 'create-config-key <platform_id> <name> --scope read [--scope write_appearance] [--expires-at ISO]',
    request: (args, o) => ({
      method: 'POST',
      path: platformPath(args, '/configuration_keys'),
      body: { name: need(args[1], 'name'), scopes: o.scope ?? [], expires_at: o['expires-at'] ?? null },
    }),
  },
  'revoke-config-key': {
    usage: 'revoke-config-key <platform_id> <key_id>',
    request: (args) => ({ method: 'DELETE', path: platformPath(args, `/configuration_keys/${need(args[1], 'key_id')}`) }),
  },
  'create-shop': {
    usage: 'create-shop <subdomain> <name> [--currency PLN] [--admin-email e]',
    request: (args, o) => ({
      method: 'POST',
      path: '/shops',
      body: { subdomain: need(args[0], 'subdomain'), name: need(args[1], 'name'), currency: o.currency, admin_email: o['admin-email'] },
    }),
  },
  'create-key': {
    usage: 'create-key <shop_id> <name> --scope read [--scope write_data] ...',
    request: (args, o) => ({ method: 'POST', path: shopPath(args, '/api_keys'), body: { name: need(args[1], 'name'), scopes: o.scope ?? [] } }),
  },
  'place-order': {
    usage: 'place-order <shop_id> <email> --item <product_id>[:quantity[:price]]... [--delivery-type id] [--payment-type id] [--discount-code c] [--product-set id [--via-set-link]] [--newsletter] [--comment c] [--ref r] [--delivery-point code] [--invoice-recipient name] [--attribute name=value]...',
    request: (args, o) => ({
      method: 'POST',
      path: shopPath(args, '/orders'),
      body: {
        email: need(args[1], 'email'),
        items: ((o.item as string[] | undefined) ?? []).map(parseItem),
        delivery_type_id: optionalNumber(o['delivery-type']),
        payment_type_id: optionalNumber(o['payment-type']),
        discount_code: o['discount-code'],
        product_set_id: optionalNumber(o['product-set']),
        via_set_link: Boolean(o['via-set-link']),
        newsletter: Boolean(o.newsletter),
        comment: o.comment,
        ref: o.ref,
        delivery_point_code: o['delivery-point'],
        invoice_recipient_name: o['invoice-recipient'],
        order_attributes: (o.attribute as string[] | undefined)?.map(parseAttribute),
      },
    }),
  },
  'edit-order': {
    usage: 'edit-order <shop_id> <order_id> [--tracking-number n] [--tracking-url u] [--delivery-point code] [--invoice-recipient name] [--transaction-id id] [--attribute name=value]...',
    request: (args, o) => ({
      method: 'PATCH',
      path: shopPath(args, `/orders/${need(args[1], 'order_id')}`),
      body: {
        tracking_number: o['tracking-number'],
        tracking_url: o['tracking-url'],
        delivery_point_code: o['delivery-point'],
        invoice_recipient_name: o['invoice-recipient'],
        transaction_id: o['transaction-id'],
        order_attributes: (o.attribute as string[] | undefined)?.map(parseAttribute),
      },
    }),
  },
  'add-note': {
    usage: 'add-note <shop_id> <order_id> <content>',
    request: (args) => ({ method: 'POST', path: shopPath(args, `/orders/${need(args[1], 'order_id')}/notes`), body: { content: need(args[2], 'content') } }),
  },
  'payment-gateway': {
    usage: 'payment-gateway <shop_id> approve|decline|stripe [--dunning-day N]...   (stripe: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET from the environment)',
    request: (args, o) => {
      const mode = need(args[1], 'mode (approve, decline or stripe)');
      const dunning = (o['dunning-day'] as string[] | undefined)?.map(Number);
      const secrets = mode === 'stripe' ? { secret_key: secretFromEnv('STRIPE_SECRET_KEY'), webhook_secret: secretFromEnv('STRIPE_WEBHOOK_SECRET') } : {};
      return { method: 'PUT', path: shopPath(args, '/payment_gateway'), body: { mode, ...secrets, dunning_days: dunning } };
    },
  },
  'payment-gateway-show': {
    usage: 'payment-gateway-show <shop_id>',
    request: (args) => ({ method: 'GET', path: shopPath(args, '/payment_gateway') }),
  },
  analytics: {
    usage: 'analytics <shop_id> <measurement_id>   (GA4: the Measurement Protocol secret from GA4_API_SECRET in the environment)',
    request: (args) => ({
      method: 'PUT',
      path: shopPath(args, '/integrations/analytics'),
      body: { measurement_id: need(args[1], 'measurement_id'), api_secret: secretFromEnv('GA4_API_SECRET') },
    }),
  },
  marketing: {
    usage: 'marketing <shop_id> <list_id> [--tag t]... [--product-tag <product_id>=<tag>]...   (Mailchimp: the API key from MAILCHIMP_API_KEY in the environment)',
    request: (args, o) => ({
      method: 'PUT',
      path: shopPath(args, '/integrations/marketing'),
      body: { provider: 'mailchimp', api_key: secretFromEnv('MAILCHIMP_API_KEY'), list_id: need(args[1], 'list_id'), tags: o.tag ?? [], product_tags: parseProductTags(o['product-tag'] as string[] | undefined) },
    }),
  },
  'analytics-show': {
    usage: 'analytics-show <shop_id>',
    request: (args) => ({ method: 'GET', path: shopPath(args, '/integrations/analytics') }),
  },
  'marketing-show': {
    usage: 'marketing-show <shop_id>',
    request: (args) => ({ method: 'GET', path: shopPath(args, '/integrations/marketing') }),
  },
  'audit-log': {
    usage: 'audit-log <platform_id>',
    request: (args) => ({ method: 'GET', path: platformPath(args, '/audit_log') }),
  },  ...referenceCommands,
};

function operatorToken(): string {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  try {
    return readFileSync(`${DATA_DIR}/admin-token`, 'utf8').trim();
  } catch {
    throw new Error('no operator token: set ADMIN_TOKEN (or run `npm start` once, which saves one in .data/admin-token)');
  }
}

function usage(): string {
  return ['usage: npm run admin -- <command> ...', '', ...Object.values(commands).map((c) => `  ${c.usage}`)].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'admin-email': { type: 'string' },
      slug: { type: 'string' },
      title: { type: 'string' },
      active: { type: 'string' },
      inactive: { type: 'boolean' },
      section: { type: 'string', multiple: true },
      to: { type: 'string' },
      scope: { type: 'string', multiple: true },
      'expires-at': { type: 'string' },
      currency: { type: 'string' },
      item: { type: 'string', multiple: true },
      'delivery-type': { type: 'string' },
      'payment-type': { type: 'string' },
      'discount-code': { type: 'string' },
      'product-set': { type: 'string' },
      'via-set-link': { type: 'boolean' },
      newsletter: { type: 'boolean' },
      comment: { type: 'string' },
      ref: { type: 'string' },
      'tracking-number': { type: 'string' },
      'tracking-url': { type: 'string' },
      'delivery-point': { type: 'string' },
      'invoice-recipient': { type: 'string' },
      'transaction-id': { type: 'string' },
      attribute: { type: 'string', multiple: true },
      'dunning-day': { type: 'string', multiple: true },
      tag: { type: 'string', multiple: true },
      'product-tag': { type: 'string', multiple: true },
      url: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      ...referenceOptions,
    },
  });
  const [name, ...args] = positionals;
  const command = name ? commands[name] : undefined;
  if (!command || values.help) {
    console.log(usage());
    return command || values.help ? 0 : 2;
  }
  const { method, path, body } = command.request(args, values);
  const base = values.url ?? process.env.API_URL ?? `http://${process.env.HOST ?? '127.0.0.1'}:${process.env.PORT ?? '3000'}`;
  const res = await fetch(`${base}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${operatorToken()}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  console.log(text ? JSON.stringify(JSON.parse(text), null, 2) : `${res.status}`);
  return res.ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
