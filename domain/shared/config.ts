import { z } from 'zod';

/** Defaults the API also applies when built without a parsed config (tests). */
export const DEFAULT_PLATFORM_URL_TEMPLATE = 'http://{subdomain}.localhost:8080';
export const DEFAULT_STORAGE_DIR = '.data/storage';
export const DEFAULT_STOREFRONT_URL_TEMPLATE = 'http://{subdomain}.localhost:8080';

/**
 * `TRUST_PROXY` as Fastify's `trustProxy`: unset or `false` trusts no proxy (the client address is
 * the connection's), `true` trusts every hop, anything else is a comma-separated list of the proxies'
 * addresses or CIDR ranges whose X-Forwarded-For is believed.
 */
export function trustProxyFrom(value: string | undefined): boolean | string {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  return text;
}
/** The public base address when none is configured and the API's own is not known (tests building the app). */
export const DEFAULT_PUBLIC_URL = 'http://127.0.0.1:3000';

/** Process configuration, parsed once at boot from the environment (see .env.example). */
const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  /** The test environment's own address (`{beta_base_url}`) on HOST: sandbox platforms only; unset: none. */
  BETA_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  DATABASE_URL: z.string().min(1, 'DATABASE_URL is required (npm start provides one)'),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).default(10),
  TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('coursehub'),
  ADMIN_TOKEN: z.string().min(16, 'ADMIN_TOKEN must be at least 16 characters').optional(),
  /** Base of the participant-facing app; `{subdomain}` is replaced by the platform's subdomain. */
  PLATFORM_URL_TEMPLATE: z.string().default(DEFAULT_PLATFORM_URL_TEMPLATE),
  /** Base of the shop's storefront (its copy links, feed links); `{subdomain}` is replaced by the shop's subdomain. */
  STOREFRONT_URL_TEMPLATE: z.string().default(DEFAULT_STOREFRONT_URL_TEMPLATE),
  /** Which proxies' X-Forwarded-For is believed for the client address (trustProxyFrom); unset: none. */
  TRUST_PROXY: z.string().optional(),
  /** Uploaded images (logo, favicon, welcome cover, ...) are kept under this folder. */
  STORAGE_DIR: z.string().min(1).default(DEFAULT_STORAGE_DIR),
  /** When set, shop photos and product files go to this S3-compatible bucket instead (adapters/file-storage/s3.ts). */
  S3_BUCKET: z.string().min(1).optional(),
  /** The bucket's service, path-style (`https://s3.eu-central-1.amazonaws.com`, `http://127.0.0.1:9000`). */
  S3_ENDPOINT: z.url().optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Older name of PUBLIC_URL (the download links' base); read only when PUBLIC_URL and PUBLIC_API_URL are unset. */
  SHOP_DOWNLOAD_BASE_URL: z.url().optional(),
  /** The Stripe API's address for shops in `stripe` mode (a local stripe-mock); Stripe's own when unset. */
  STRIPE_API_URL: z.url().optional(),
  /** The GA4 Measurement Protocol collect address (a local receiver); Google's when unset. */
  GA4_MP_URL: z.url().optional(),
  /** Mailchimp's Marketing API base (a local stand-in, e.g. `http://127.0.0.1:9000/3.0`); `https://<dc>.api.mailchimp.com/3.0` from the key when unset. */
  MAILCHIMP_API_URL: z.url().optional(),
  /**
   * The public base address of every link a mail or a reply carries (downloads, invoices, images)
   * and the OpenAPI documents' `servers`, for api and worker alike (DESIGN.md section 10); unset:
   * `http://<HOST>:<PORT>` (npm start sets it to the API's address).
   */
  PUBLIC_URL: z.url().optional(),
  /** Older name of PUBLIC_URL; read only when PUBLIC_URL is unset. */
  PUBLIC_API_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `off` disables the request limits (load tests). */
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  /** When set, rate-limit counters are shared by every api instance through this Redis. */
  REDIS_URL: z.string().min(1).optional(),
  /** `production` (the Docker image, docker-compose.yml): SECRETS_KEY is required. */
  NODE_ENV: z.string().optional(),
  /**
   * 32 bytes, base64: encrypts stored secrets (webhook secrets, mail credentials). Unset: required in
   * production; otherwise the installation's key in .data/secrets-key (adapters/secrets/secret-box.ts).
   */
  SECRETS_KEY: z.string().min(1).optional(),
  /** Keys SECRETS_KEY replaced, comma-separated, newest first: still open what they sealed (rotation). */
  SECRETS_KEY_PREVIOUS: z.string().optional(),
  /** CIDRs webhook delivery may reach although private (local receivers in tests only); empty: none. */
  WEBHOOK_PRIVATE_ALLOWLIST: z.string().default(''),
  /** Delays before webhook retries, comma-separated (`5s,5m,30m,2h,...`); docs/decisions/, "Webhooks". */
  WEBHOOK_RETRY_SCHEDULE: z.string().optional(),
  /** A webhook attempt succeeds on a 2xx within this many milliseconds. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Mail delivery endpoints (domain/shared/mail-endpoints.ts); an unset provider endpoint makes that provider unusable. */
  PROVIDER_A_API_URL: z.url().optional(),
  /** `{region}` is replaced by provider_b's region. */
  PROVIDER_B_SMTP_HOST: z.string().min(1).optional(),
  PROVIDER_B_SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  PROVIDER_B_SMTP_TLS: z.enum(['starttls', 'implicit', 'none']).default('starttls'),
  PROVIDER_B_SIMULATOR_ADDRESS: z.email().default('success@simulator.provider-b.invalid'),
  PROVIDER_C_API_URL: z.url().optional(),
  /** The platform's own SMTP relay (`smtp://user:pass@host:587`); unset: mail is recorded in the mail log only. */
  DEFAULT_SMTP_URL: z.string().min(1).optional(),
  DEFAULT_MAIL_FROM: z.email().default('no-reply@coursehub.invalid'),
  /** Sandbox platforms' mail, whatever provider they saved: a mail catcher (`smtp://127.0.0.1:1025`); unset: recorded only. */
  SANDBOX_SMTP_URL: z.string().min(1).optional(),
  MAIL_SEND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** The worker's Prometheus `/metrics` (ours and the Temporal SDK's); 0: a free port (printed). The api's is `GET /metrics` on PORT. */
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  WORKER_METRICS_HOST: z.string().default('127.0.0.1'),
  /** OTLP/HTTP collector (`http://127.0.0.1:4318`): traces are exported there; unset: tracing is off (adapters/tracing.ts). */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
});

/** No built-in key: a production process without SECRETS_KEY refuses to start. */
const checkedConfigSchema = configSchema.superRefine((config, context) => {
  for (const name of ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
    if (config.S3_BUCKET && !config[name]) context.addIssue({ code: 'custom', path: [name], message: 'is required when S3_BUCKET is set' });
  }
  if (config.NODE_ENV === 'production' && !config.SECRETS_KEY?.trim()) {
    context.addIssue({ code: 'custom', path: ['SECRETS_KEY'], message: 'is required when NODE_ENV=production (32 random bytes, base64)' });
  }
});

export type Config = z.infer<typeof configSchema>;

/** Every environment variable the api and the worker read (the deployment descriptions are checked against it). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(configSchema.shape);

export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = checkedConfigSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid environment:\n  ${lines.join('\n  ')}`);
  }
  return result.data;
}

/**
 * The public base address (no trailing slash): `PUBLIC_URL`, or its older names, or the API's own
 * address on HOST and PORT (a wildcard HOST as the loopback address).
 */
export function publicUrlOf(config: Pick<Config, 'PUBLIC_URL' | 'PUBLIC_API_URL' | 'SHOP_DOWNLOAD_BASE_URL' | 'HOST' | 'PORT'>): string {
  const configured = config.PUBLIC_URL ?? config.PUBLIC_API_URL ?? config.SHOP_DOWNLOAD_BASE_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
}
