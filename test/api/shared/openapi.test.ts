import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../../api/shared/openapi/documents.ts';
import { AUDIENCES } from '../../../api/shared/openapi/interfaces.ts';
import { clientTypes, GENERATED_TYPES } from '../../../scripts/openapi.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let whole: OpenApiDocument;
beforeAll(async () => {
  stack = await startTestApp('openapi');
  whole = await documentAt('/docs/json');
});
afterAll(() => stack?.close());

async function documentAt(url: string): Promise<OpenApiDocument> {
  const res = await stack.app.inject({ method: 'GET', url });
  expect(res.statusCode, url).toBe(200);
  return res.json();
}

type Operation = { method: string; path: string } & Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const operationsOf = (document: OpenApiDocument): Operation[] =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ ...operation, method, path })),
  );
const named = (o: Operation) => `${o.method.toUpperCase()} ${o.path}`;

describe('every route of the OpenAPI document', () => {
  it('declares an operationId <audience>.<resource>.<action>, unique, and a summary (routes added later included)', () => {
    const operations = operationsOf(whole);
    expect(operations.length).toBeGreaterThan(150);
    expect(operations.filter((o) => typeof o.summary !== 'string' || o.summary.trim() === '').map(named)).toEqual([]);
    expect(operations.filter((o) => !/^(access|configuration|shop|storefront|admin|public)(\.[a-z0-9_]+){2,}$/.test(o.operationId ?? '')).map(named)).toEqual([]);
    expect(operations.filter((o) => !o.operationId.startsWith(`${o['x-audience']}.`)).map((o) => `${named(o)}: ${o.operationId}`)).toEqual([]);
    const seen = new Map<string, string>();
    const repeated = operations.filter((o) => seen.has(o.operationId) || !seen.set(o.operationId, named(o))).map((o) => `${o.operationId}: ${seen.get(o.operationId)} and ${named(o)}`);
    expect(repeated).toEqual([]);
  });

  it('requires the security of its interface, with the scope the route declares', () => {
    const expected = (o: Operation) => {
      if (o.path.startsWith('/admin/')) return [{ operatorToken: [] }];
      if (o.path.startsWith('/store/')) return [];
      if (o.path.startsWith('/api/v1/')) return [{ [o['x-audience'] === 'configuration' ? 'configurationKey' : 'shopKey']: [o['x-required-scope']] }];
      if (o.path.startsWith('/api/')) return [{ accessKey: [] }];
      return [];
    };
    const wrong = operationsOf(whole).filter((o) => JSON.stringify(o.security) !== JSON.stringify(expected(o)));
    expect(wrong.map((o) => `${named(o)}: ${JSON.stringify(o.security)}`)).toEqual([]);
    expect(whole.paths['/api/v1/orders/{id}/clear']!.patch!.security).toEqual([{ shopKey: ['write_data'] }]);
    expect(whole.paths['/api/v1/configuration/club']!.patch!['x-audience']).toBe('shop');
    expect(whole.paths['/api/v1/configuration/platform']!.patch!.security).toEqual([{ configurationKey: ['write_appearance'] }]);
    expect(Object.keys(whole.components!.securitySchemes!).sort()).toEqual(['accessKey', 'configurationKey', 'operatorToken', 'shopKey']);
  });

  it("answers its interface's error statuses with their bodies: 401/403 where keyed, 404 with path ids, 413/415/validation with a body, 429 where limited", () => {
    const codes = (path: string, method: string) => Object.keys(whole.paths[path]![method]!.responses!).sort();
    expect(codes('/api/v1/products', 'post')).toEqual(expect.arrayContaining(['201', '401', '403', '413', '415', '422', '429']));
    expect(codes('/api/v1/orders/{id}', 'get')).toEqual(['200', '401', '403', '404', '422', '429']);
    // A missing date_from/date_to is a 400 (spec, Errors), a bad one the shop's 422.
    expect(codes('/api/v1/reports/sales', 'get')).toEqual(['200', '400', '401', '403', '422', '429']);
    expect(codes('/api/test', 'get')).toEqual(['200', '401', '403', '429']);
    expect(codes('/admin/v1/shops/{shop_id}/orders', 'post')).toEqual(expect.arrayContaining(['400', '401', '404', '413', '415']));
    expect(codes('/admin/v1/shops/{shop_id}/orders', 'post')).not.toContain('429');
    const responses = whole.paths['/api/v1/products']!.post!.responses as Record<string, any>;
    // A 429 the route does not declare itself: the interface's, with Retry-After.
    const limited = (whole.paths['/api/v1/orders/{id}']!.get!.responses as Record<string, any>)['429'];
    expect(limited.headers['Retry-After']).toBeDefined();
    expect(limited.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(responses['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ValidationError' });
    const without4xx = operationsOf(whole).filter((o) => o.path !== '/health' && !Object.keys(o.responses).some((c) => c.startsWith('4')));
    expect(without4xx.map(named)).toEqual([]);
  });

  it('is OpenAPI 3.1 with servers, tags per service and resource, and no unused schema', () => {
    expect(whole.openapi).toBe('3.1.0');
    expect(whole.servers).toEqual([{ url: 'http://127.0.0.1:3000' }]);
    expect(whole.paths['/api/v1/orders']!.get!.tags).toEqual(['shop: orders']);
    expect(whole.paths['/api/v1/configuration/club']!.get!.tags).toEqual(['shop: configuration/club']);
    expect(whole.paths['/admin/v1/shops/{shop_id}/orders']!.post!.tags).toEqual(['admin: shops']);
    expect(JSON.stringify(whole)).not.toContain('"nullable"');
    const text = JSON.stringify(whole.paths) + JSON.stringify(whole.components!.schemas);
    const unused = Object.keys(whole.components!.schemas!).filter((name) => !text.includes(`"#/components/schemas/${name}"`));
    expect(unused).toEqual([]);
  });
});

describe('GET /docs/<audience>.json', () => {
  it('serves one document per audience holding exactly its operations and what they use', async () => {
    const all = operationsOf(whole);
    for (const audience of AUDIENCES) {
      const document = await documentAt(`/docs/${audience}.json`);
      expect(document.openapi).toBe('3.1.0');
      const mine = operationsOf(document);
      expect(mine.map(named).sort(), audience).toEqual(all.filter((o) => o['x-audience'] === audience).map(named).sort());
      const schemes = new Set(mine.flatMap((o) => o.security.flatMap((r: object) => Object.keys(r))));
      expect(Object.keys(document.components?.securitySchemes ?? {}).sort(), audience).toEqual([...schemes].sort());
    }
    const shop = await documentAt('/docs/shop.json');
    expect(shop.paths['/api/v1/configuration/club']).toBeDefined();
    expect(shop.paths['/api/v1/configuration/platform']).toBeUndefined();
    expect(Object.keys(shop.paths).every((p) => p.startsWith('/api/v1/'))).toBe(true);
    const configuration = await documentAt('/docs/configuration.json');
    expect(configuration.paths['/api/v1/configuration/platform']).toBeDefined();
    expect(configuration.paths['/api/v1/configuration/club']).toBeUndefined();
    const storefront = await documentAt('/docs/storefront.json');
    expect(Object.keys(storefront.paths).every((p) => p.startsWith('/store/v1/'))).toBe(true);
  });
});

describe('the committed client types (test/generated/)', () => {
  it('are what openapi-typescript generates from the documents served now (else: npm run openapi -- --types)', async () => {
    for (const [audience, file] of Object.entries(GENERATED_TYPES)) {
      const fresh = await clientTypes(await documentAt(`/docs/${audience}.json`));
      expect(await readFile(file, 'utf8'), `${file} is stale: npm run openapi -- --types`).toBe(fresh);
    }
  });
});
