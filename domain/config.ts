import { z } from 'zod';

/** Process configuration, parsed once at boot from the environment (see .env.example). */
const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().min(1, 'DATABASE_URL is required (npm start provides one)'),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).default(10),
  TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('coursehub'),
  ADMIN_TOKEN: z.string().min(16, 'ADMIN_TOKEN must be at least 16 characters').optional(),
  /** Base of the participant-facing app; `{subdomain}` is replaced by the platform's subdomain. */
  PLATFORM_URL_TEMPLATE: z.string().default('http://{subdomain}.localhost:8080'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `off` disables the request limits (load tests). */
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  /** When set, rate-limit counters are shared by every api instance through this Redis. */
  REDIS_URL: z.string().min(1).optional(),
});

export type Config = z.infer<typeof configSchema>;

export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid environment:\n  ${lines.join('\n  ')}`);
  }
  return result.data;
}
