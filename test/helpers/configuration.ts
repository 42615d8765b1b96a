/** Configuration keys and requests of the configuration interface, as a client would make them. */
import { expect } from 'vitest';
import type { App } from '../../api/app.ts';
import { operator } from './fixtures.ts';

export const CONFIGURATION = '/api/v1/configuration';
export const ALL_SCOPES = ['read', 'write_appearance', 'write_config'];

export interface TestConfigurationKey {
  id: string;
  token: string;
  prefix: string;
}

export async function createConfigurationKey(
  app: App,
  platformId: string,
  scopes: string[] = ALL_SCOPES,
  extra: { name?: string; expires_at?: string | null } = {},
): Promise<TestConfigurationKey> {
  const res = await app.inject({
    method: 'POST',
    url: `/admin/v1/platforms/${platformId}/configuration_keys`,
    headers: operator,
    payload: { name: 'test key', scopes, ...extra },
  });
  expect(res.statusCode, res.body).toBe(201);
  const { id, token, prefix } = res.json().data;
  return { id, token, prefix };
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** A configuration request; a payload is sent as JSON unless `headers` say otherwise. */
export function configure(app: App, method: Method, path: string, key: string | undefined, payload?: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method,
    url: `${CONFIGURATION}${path}`,
    headers: {
      ...(key === undefined ? {} : { 'x-api-key': key }),
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
  });
}

export async function auditLog(app: App, platformId: string): Promise<{ at: string; method: string; path: string; status: number; key_prefix: string | null }[]> {
  const res = await app.inject({ method: 'GET', url: `/admin/v1/platforms/${platformId}/audit_log`, headers: operator });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

export async function mailLog(app: App, platformId: string, to?: string): Promise<{ to: string; template: string; subject: string; html: string }[]> {
  const query = to ? `?to=${encodeURIComponent(to)}` : '';
  const res = await app.inject({ method: 'GET', url: `/admin/v1/platforms/${platformId}/emails${query}`, headers: operator });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}
