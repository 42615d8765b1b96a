/**
 * Issue 42, item 5: the negative auth walk. Beside the hostile walk that proves every route's 2xx,
 * every operation of the OpenAPI document that names a security requirement answers 401 without
 * credentials and with the credentials of every other tenant kind, and 403 with a key of its own
 * kind that lacks the scope its `x-required-scope` names. The walk reads the document, so a route
 * is walked the day it is added, without anyone listing it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIGURATION_SCOPES } from '../../../domain/access/configuration-keys.ts';
import { SHOP_SCOPES } from '../../../domain/shop/scopes.ts';
import { createConfigurationKey } from '../../helpers/configuration.ts';
import { createPlatform, operator } from '../../helpers/fixtures.ts';
import { createTestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

type Scheme = 'accessKey' | 'configurationKey' | 'shopKey' | 'operatorToken';
interface Operation {
  method: string;
  path: string;
  security?: Record<string, unknown>[];
  'x-required-scope'?: string;
}

let stack: TestStack;
/** Full credentials of each tenant kind. */
let credentials: Record<Scheme, Record<string, string>>;
/** Keys holding one scope each, by kind and scope. */
let scopedKeys: { configurationKey: Record<string, string>; shopKey: Record<string, string> };

beforeAll(async () => {
  stack = await startTestApp('negative-auth');
  const platform = await createPlatform(stack.app, 'Negative auth');
  const shop = await createTestShop(stack.app, 'negative-auth');
  const configurationKeys = Object.fromEntries(
    await Promise.all(CONFIGURATION_SCOPES.map(async (scope) => [scope, (await createConfigurationKey(stack.app, platform.id, [scope])).token])),
  ) as Record<string, string>;
  credentials = {
    accessKey: { 'x-api-key': platform.apiKey },
    configurationKey: { 'x-api-key': (await createConfigurationKey(stack.app, platform.id)).token },
    shopKey: { 'x-api-key': shop.key },
    operatorToken: operator,
  };
  scopedKeys = { configurationKey: configurationKeys, shopKey: Object.fromEntries(SHOP_SCOPES.map((scope) => [scope, shop.keys[scope]])) };
});
afterAll(() => stack?.close());

function securedOperations(): (Operation & { scheme: Scheme })[] {
  const document = stack.app.swagger() as unknown as { paths: Record<string, Record<string, Operation>> };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({ ...operation, method: method.toUpperCase(), path }))
      .filter((operation) => operation.security?.length)
      .map((operation) => ({ ...operation, scheme: Object.keys(operation.security![0]!)[0] as Scheme })),
  );
}

/** The path with ids that exist nowhere: auth is decided before any row is read. */
const urlOf = (path: string) => path.replace(/\{[^}]+\}/g, (name) => (/id|uuid/.test(name) ? randomUUID() : 'x'));

async function send(operation: Operation, headers: Record<string, string>) {
  const write = operation.method !== 'GET' && operation.method !== 'DELETE';
  const res = await stack.app.inject({
    method: operation.method as 'GET',
    url: urlOf(operation.path),
    headers: { ...headers, ...(write && { 'content-type': 'application/json' }) },
    ...(write && { payload: '{}' }),
  });
  return { status: res.statusCode, body: res.body.slice(0, 200) };
}

describe('every secured route refuses the wrong credentials', () => {
  it('walks a route of each interface (the document is read, not a list)', () => {
    const schemes = new Set(securedOperations().map((o) => o.scheme));
    expect([...schemes].sort()).toEqual(['accessKey', 'configurationKey', 'operatorToken', 'shopKey']);
    expect(securedOperations().length).toBeGreaterThan(150);
  });

  it('answers 401 without credentials and with every other tenant kind\'s credentials', async () => {
    const wrong: string[] = [];
    for (const operation of securedOperations()) {
      const attempts: [string, Record<string, string>][] = [
        ['none', {}],
        ...(Object.entries(credentials) as [Scheme, Record<string, string>][])
          // A platform's access key and its configuration key share the header; each is refused by the other's routes.
          .filter(([scheme]) => scheme !== operation.scheme)
          .map(([scheme, headers]) => [scheme, headers] as [string, Record<string, string>]),
      ];
      for (const [label, headers] of attempts) {
        const reply = await send(operation, headers);
        if (reply.status !== 401) wrong.push(`${operation.method} ${operation.path} with ${label}: ${reply.status} ${reply.body}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers 403 with a key of its own kind that lacks the required scope', async () => {
    const wrong: string[] = [];
    let walked = 0;
    for (const operation of securedOperations()) {
      const scope = operation['x-required-scope'];
      // `any`: every key of the kind opens it (its own description, `/configuration/self`).
      if (!scope || scope === 'any' || (operation.scheme !== 'shopKey' && operation.scheme !== 'configurationKey')) continue;
      for (const [other, key] of Object.entries(scopedKeys[operation.scheme])) {
        if (other === scope) continue;
        walked++;
        const reply = await send(operation, { 'x-api-key': key });
        if (reply.status !== 403) wrong.push(`${operation.method} ${operation.path} (needs ${scope}) with a ${other} key: ${reply.status} ${reply.body}`);
      }
    }
    expect(walked).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });
});
