/**
 * Issue 16, item 1: no input produces a 5xx, on any route of any interface. The test walks every
 * operation of the OpenAPI document, so a route is covered the day it is added, with a table of
 * hostile bodies (non-objects, arrays, deep nesting, 1 MB strings, NUL bytes, lone surrogates,
 * prototype names as keys, wrong types and bad numbers for every declared property), hostile query
 * parameters and hostile path parameters, each sent with a key that opens the route. Every 5xx is
 * collected with its method, URL, input and the logged error, and the list must be empty.
 *
 * Issue 28, item 4: first, a plain request of every route (a valid body, ids of existing rows:
 * hostile-input-fixtures.ts and hostile-input-valid-requests.ts) must succeed, so that a walk whose
 * keys open nothing, or whose requests never reach a handler's writes, cannot pass.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createConfigurationKey } from '../../helpers/configuration.ts';
import { createCourse, createPlatform, operator } from '../../helpers/fixtures.ts';
import { createTestShop } from '../../helpers/shop.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';
import { createWalkFixtures } from './hostile-input-fixtures.ts';
import { validRequests, type ValidRequest } from './hostile-input-valid-requests.ts';

type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  parameters?: { in: string; name: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  security?: Record<string, unknown>[];
}

const logLines: string[] = [];
let stack: TestStack;
/** Ids a path parameter takes by default, so that a request reaches the handler's writes. */
let ids: { platform: string; course: string; product: string; targetPlatform: string; targetCourse: string; targetShop: string; subdomain: string };
type Credentials = Record<string, string>;
let headers: { access: Credentials; configuration: Credentials; shop: Credentials; operator: Credentials; none: Credentials };
/** What each route's plain request needs to succeed, by `METHOD /path`. */
let valid: Record<string, ValidRequest>;

beforeAll(async () => {
  stack = await startTestApp('hostile-input', { logStream: { write: (line) => void logLines.push(line) }, integrationEndpoints: { stripeApiUrl: inject('stripeMockUrl') } });
  const { app } = stack;
  // The interfaces act on one platform and shop; the operator routes on others, so that rotating
  // a key or switching a shop's API off there does not close the interfaces to the walk.
  const platform = await createPlatform(app, 'Hostile');
  const configurationKey = await createConfigurationKey(app, platform.id);
  const shop = await createTestShop(app, 'hostile');
  const target = await createPlatform(app, 'Hostile target');
  const targetShop = await createTestShop(app, 'hostile-target');
  const tenants = { platform, course: await createCourse(app, platform.id), shop, target, targetCourse: await createCourse(app, target.id), targetShop };
  ids = {
    platform: platform.id,
    course: tenants.course.id,
    product: String(await insertProduct(stack.orm, shop.id)),
    targetPlatform: target.id,
    targetCourse: tenants.targetCourse.id,
    targetShop: targetShop.id,
    // The storefront's routes walk the interfaces' shop (no key).
    subdomain: shop.subdomain,
  };
  valid = validRequests(await createWalkFixtures(stack, tenants), tenants);
  headers = {
    access: { 'x-api-key': platform.apiKey },
    configuration: { 'x-api-key': configurationKey.token },
    shop: { 'x-api-key': shop.key },
    operator,
    none: {},
  };
});
afterAll(() => stack?.close());

/** The credentials that open a route, by its interface. */
function credentialsFor(path: string): Record<string, string> {
  if (path.startsWith('/admin/v1/')) return headers.operator;
  if (path.startsWith('/api/v1/configuration/') && CONFIGURATION_PATHS.some((prefix) => path.startsWith(prefix))) return headers.configuration;
  if (path.startsWith('/api/v1/')) return headers.shop;
  if (path.startsWith('/api/')) return headers.access;
  return headers.none;
}
/** The platform's configuration resources; the shop's configuration paths share the prefix. */
const CONFIGURATION_PATHS = ['self', 'platform', 'welcome_section', 'email_templates', 'courses/', 'email_delivery', 'webhooks'].map(
  (p) => `/api/v1/configuration/${p}`,
);

let components: Record<string, Schema> = {};
const resolve = (schema: Schema | undefined): Schema => {
  let current = schema ?? {};
  while (typeof current.$ref === 'string') current = components[current.$ref.split('/').pop()!] ?? {};
  return current;
};
const alternatives = (schema: Schema): Schema[] => (schema.anyOf ?? schema.oneOf ?? schema.allOf ?? []).map(resolve);
const typeOf = (schema: Schema): string | undefined => {
  const s = resolve(schema);
  if (s.type) return Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  return alternatives(s).map(typeOf).find(Boolean);
};

/** A plausible value of a schema: required members only, the first enum value, the minimum. */
function sample(schemaIn: Schema | undefined, depth = 0): unknown {
  const schema = resolve(schemaIn);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.example !== undefined) return schema.example;
  if (!schema.type) {
    const first = alternatives(schema).find((s) => s.type !== 'null');
    return first ? sample(first, depth) : 'x';
  }
  switch (typeOf(schema)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth > 6) return out;
      for (const name of schema.required ?? []) out[name] = sample(schema.properties?.[name], depth + 1);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items, depth + 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? Number(schema.exclusiveMinimum) + 1 : 1);
    case 'boolean':
      return true;
    default:
      return sampleString(schema);
  }
}
function sampleString(schema: Schema): string {
  switch (schema.format) {
    case 'email':
      return 'hostile@example.com';
    case 'uuid':
      return randomUUID();
    case 'uri':
      return 'https://example.com/x';
    case 'date-time':
      return new Date().toISOString();
    case 'date':
      return '2026-01-01';
    default:
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

/** Every string of a value replaced by `text` (keys kept). */
function poisonStrings(value: unknown, text: string): unknown {
  if (typeof value === 'string') return text;
  if (Array.isArray(value)) return value.map((v) => poisonStrings(v, text));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poisonStrings(v, text)]));
  return value;
}

/** The value of a property with every optional member filled, for poisoning nested strings. */
function sampleFull(schemaIn: Schema | undefined, depth = 0): unknown {
  const schema = resolve(schemaIn);
  const type = typeOf(schema);
  const concrete = schema.type ? schema : (alternatives(schema).find((s) => s.type && s.type !== 'null') ?? schema);
  if (type === 'object' && depth < 5) {
    const props = concrete.properties ?? {};
    return Object.fromEntries(Object.keys(props).map((name) => [name, sampleFull(props[name], depth + 1)]));
  }
  if (type === 'array' && depth < 5) return [sampleFull(concrete.items, depth + 1)];
  return sample(schema, depth);
}

const NUL = 'a\u0000b';
const LONE_SURROGATE = 'a\ud800b';
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
const BAD_NUMBERS: unknown[] = [-1, 1.5, 2 ** 63];
/** For amounts and ids sent as text ("12.50"). */
const BAD_NUMERIC_TEXTS: unknown[] = ['-1', '1e309', '99999999999999999999.99'];
const MB_STRING = 'a'.repeat(1024 * 1024 - 200);

interface Input {
  label: string;
  /** Raw JSON (keys such as `__proto__` survive only as text). */
  body?: string;
  query?: string;
  params?: Record<string, string>;
}

/** Raw JSON of an object with extra members (possibly named like prototype properties). */
const withRawMembers = (base: unknown, members: string) => {
  const json = JSON.stringify(base);
  if (!json.startsWith('{')) return json;
  return json === '{}' ? `{${members}}` : `{${members},${json.slice(1)}`;
};

function bodyInputs(operation: Operation): Input[] {
  const schema = resolve(operation.requestBody?.content?.['application/json']?.schema);
  const base = operation.requestBody ? sample(schema) : {};
  const properties: Record<string, Schema> = typeOf(schema) === 'object' ? (resolve(schema).properties ?? {}) : {};
  const set = (name: string, value: unknown) => JSON.stringify({ ...(base as object), [name]: value });
  const full = { ...(sampleFull(schema) as object), ...(base as object) };
  const firstString = Object.keys(properties).find((name) => typeOf(properties[name] ?? {}) === 'string') ?? 'name';
  const inputs: Input[] = [
    { label: 'base', body: JSON.stringify(base) },
    ...['1', 'null', '[]', '[{}]'].map((body) => ({ label: `non-object ${body}`, body })),
    { label: 'deep nesting', body: '{"a":'.repeat(5000) + '1' + '}'.repeat(5000) },
    { label: 'NUL in a key', body: withRawMembers(base, '"a\\u0000b":1') },
    { label: 'prototype names as keys', body: withRawMembers(base, PROTOTYPE_NAMES.map((n) => `${JSON.stringify(n)}:1`).join(',')) },
    { label: 'prototype names as keys holding objects', body: withRawMembers(base, PROTOTYPE_NAMES.map((n) => `${JSON.stringify(n)}:{"x":[1]}`).join(',')) },
    { label: `${firstString}: NUL`, body: set(firstString, NUL) },
    { label: `${firstString}: lone surrogate`, body: set(firstString, LONE_SURROGATE) },
    { label: `${firstString}: 1 MB string`, body: set(firstString, MB_STRING) },
    { label: 'NUL in every string of every member', body: JSON.stringify(poisonStrings(full, NUL)) },
    { label: 'lone surrogate in every string of every member', body: JSON.stringify(poisonStrings(full, LONE_SURROGATE)) },
  ];
  for (const [name, property] of Object.entries(properties)) {
    const type = typeOf(property);
    const numericText = type === 'string' && /"(number|integer)"|"example":"\d/.test(JSON.stringify(property));
    const values: unknown[] = [type === 'string' ? 1 : type === 'object' || type === 'array' ? 'x' : {}];
    if (type === 'string') values.push('x'.repeat(100_000));
    if (type === 'integer' || type === 'number') values.push(...BAD_NUMBERS);
    if (numericText) values.push(...BAD_NUMERIC_TEXTS);
    inputs.push(...values.map((value) => ({ label: `${name}: ${JSON.stringify(value).slice(0, 40)}`, body: set(name, value) })));
    const nested = sampleFull(property);
    if (typeof nested === 'object' && nested !== null) {
      inputs.push({ label: `${name}: prototype names inside`, body: withRawMembers(base, `${JSON.stringify(name)}:${withRawMembers(nested, '"__proto__":{"x":1},"toString":1,"constructor":"x"')}`) });
    }
  }
  return inputs;
}

const BAD_QUERY_VALUES = ['a%00b', 'x'.repeat(5000), '-1', '1.5', '00000000-0000-0000-0000-00000000000g'];

function queryInputs(operation: Operation): Input[] {
  const names = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  const inputs: Input[] = [
    { label: 'prototype names in the query', query: PROTOTYPE_NAMES.map((n) => `${n}=1`).join('&') },
    { label: 'NUL in an unknown query parameter', query: 'x=%00' },
  ];
  for (const name of names) {
    inputs.push(...BAD_QUERY_VALUES.map((value) => ({ label: `query ${name}=${value.slice(0, 40)}`, query: `${name}=${value}` })));
    inputs.push({ label: `query ${name} repeated`, query: `${name}=1&${name}=2` });
  }
  return inputs;
}

const BAD_PATH_VALUES = [
  '%00',
  '%ED%A0%80',
  '..%2F..%2Fetc',
  'x'.repeat(5000),
  '1.5',
  '99999999999999999999',
  '00000000-0000-0000-0000-00000000000g',
  '__proto__',
];

/** The id a path parameter normally takes: a real row where the walk has one, else a well-formed unknown id. */
function defaultParam(path: string, name: string, schema: Schema | undefined): string {
  const admin = path.startsWith('/admin/');
  if (name === 'platform_id') return admin ? ids.targetPlatform : ids.platform;
  if (name === 'shop_id') return ids.targetShop;
  if (name === 'course_id') return admin ? ids.targetCourse : ids.course;
  if (name === 'product_id' || (name === 'id' && (path.startsWith('/api/v1/products/') || /^\/store\/v1\/\{subdomain\}\/products\//.test(path)))) return ids.product;
  if (name === 'subdomain') return ids.subdomain;
  if (name === 'slug') return 'user_invitation';
  return typeOf(schema ?? {}) === 'integer' ? '987654' : randomUUID();
}

function pathInputs(operation: Operation): Input[] {
  const names = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
  return names.flatMap((name) => BAD_PATH_VALUES.map((value) => ({ label: `path ${name}=${value.slice(0, 40)}`, params: { [name]: value } })));
}

function urlOf(operation: Operation, input: Input): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const declared = operation.parameters?.find((p) => p.in === 'path' && p.name === name);
    return input.params?.[name] ?? encodeURIComponent(defaultParam(operation.path, name, declared?.schema));
  });
  return input.query ? `${path}?${input.query}` : path;
}

interface Failure {
  method: string;
  url: string;
  input: string;
  status: number;
  reply: string;
  logged: string[];
}

/** Every operation of the OpenAPI document, the operator routes last (their writes act on other tenants). */
function allOperations(): Operation[] {
  const document = stack.app.swagger() as unknown as { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };
  components = document.components?.schemas ?? {};
  const operations: Operation[] = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({ ...operation, method: method.toUpperCase(), path })),
  );
  operations.sort((a, b) => Number(a.path.startsWith('/admin/')) - Number(b.path.startsWith('/admin/')));
  return operations;
}

/**
 * The walk's plain request of a route: the sample body (required members) with the route's valid
 * members over it, the default ids or the route's own (an existing row), its credentials.
 */
function plainRequest(operation: Operation) {
  const route = valid[`${operation.method} ${operation.path}`] ?? {};
  const sampled = operation.method === 'GET' ? undefined : bodyInputs(operation)[0]!.body;
  const body = route.payload ?? (route.body && sampled !== undefined ? JSON.stringify({ ...JSON.parse(sampled), ...route.body }) : sampled);
  const params = Object.fromEntries(Object.entries(route.params ?? {}).map(([name, value]) => [name, String(value)]));
  return {
    method: operation.method as 'GET',
    url: urlOf(operation, { label: 'plain', params, ...(route.query && { query: route.query }) }),
    headers: { ...credentialsFor(operation.path), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...route.headers },
    ...(body === undefined ? {} : { payload: body }),
  };
}

it('the walk\'s credentials open every route, and its plain request of each succeeds', async () => {
  const answers: { route: string; status: number; reply: string }[] = [];
  // Each deletion takes a row of its own; deletions last all the same, so that no route finds its row deleted by another's probe.
  const operations = allOperations().sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
  for (const operation of operations) {
    const res = await stack.app.inject(plainRequest(operation));
    answers.push({ route: `${operation.method} ${operation.path}`, status: res.statusCode, reply: res.body.slice(0, 200) });
  }
  const failing = answers.filter((a) => a.status < 200 || a.status >= 300);
  for (const a of failing) console.log(`plain request not 2xx: ${a.status} ${a.route} ${a.reply}`);
  console.log(`plain requests: ${answers.length} routes, ${answers.length - failing.length} proven 2xx`);
  // A broken credential mapping answers 401 or 403, and would let the walk pass on refusals.
  expect(answers.filter((a) => a.status === 401 || a.status === 403)).toEqual([]);
  // And a route that stops succeeding (a broken fixture, a new rule the valid request misses) is named here.
  expect(failing.map((a) => `${a.status} ${a.route} ${a.reply}`)).toEqual([]);
}, 600_000);

it('answers every hostile body, query and path parameter on every route of the OpenAPI document with a 4xx or a success, never a 5xx', async () => {
  const { app } = stack;
  const operations = allOperations();

  const failures: Failure[] = [];
  /** Routes whose first (plain) request of the walk was refused: the key no longer opens them. */
  const refused: string[] = [];
  const statuses = new Map<number, number>();
  const slowest: [string, number, number][] = [];
  let requests = 0;
  for (const operation of operations) {
    const started = Date.now();
    const takesBody = operation.method !== 'GET';
    const inputs = [...(takesBody ? bodyInputs(operation) : [{ label: 'no body' }]), ...queryInputs(operation), ...pathInputs(operation)];
    const baseBody = takesBody ? inputs[0]?.body : undefined;
    for (const input of inputs) {
      const url = urlOf(operation, input);
      const body = input.body ?? baseBody;
      const logged = logLines.length;
      const res = await app.inject({
        method: operation.method as 'GET',
        url,
        headers: { ...credentialsFor(operation.path), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { payload: body }),
      });
      requests += 1;
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (input === inputs[0] && (res.statusCode === 401 || res.statusCode === 403)) refused.push(`${res.statusCode} ${operation.method} ${operation.path}`);
      if (res.statusCode >= 500) {
        failures.push({
          method: operation.method,
          url: url.slice(0, 200),
          input: input.label,
          status: res.statusCode,
          reply: res.body.slice(0, 300),
          logged: logLines.slice(logged).map((line) => line.slice(0, 2000)),
        });
      }
    }
    slowest.push([`${operation.method} ${operation.path}`, inputs.length, Date.now() - started]);
  }
  slowest.sort((a, b) => b[2] - a[2]);
  console.log(slowest.slice(0, 12).map(([route, n, ms]) => `${route}: ${n} requests, ${ms} ms`).join('\n'));

  console.log(
    `hostile input: ${operations.length} routes, ${requests} requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}; ${failures.length} answered 5xx`,
  );
  for (const failure of failures) console.log(JSON.stringify(failure, null, 1));
  expect(operations.length).toBeGreaterThan(50);
  expect(operations.filter((o) => o.path.startsWith('/store/v1/')).length).toBeGreaterThanOrEqual(8);
  expect(failures.map((f) => `${f.status} ${f.method} ${f.url} (${f.input})`)).toEqual([]);
  expect(refused).toEqual([]);
}, 300_000);

describe('the input guard answers in each interface\'s style', () => {
  const send = (method: 'GET' | 'POST' | 'PATCH', url: string, credentials: Credentials, payload?: string) =>
    stack.app.inject({ method, url, headers: { ...credentials, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) }, ...(payload === undefined ? {} : { payload }) });

  it('the configuration interface: 422 naming the field as sent; nothing stored', async () => {
    for (const text of ['a\\u0000b', 'a\\ud800b']) {
      const res = await send('PATCH', '/api/v1/configuration/platform', headers.configuration, `{"footer":{"content":"${text}"}}`);
      expect(res.statusCode, res.body).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['footer.content']);
    }
    const read = await send('GET', '/api/v1/configuration/platform', headers.configuration);
    expect(read.json().data.footer.content ?? '').not.toContain('\ufffd');
    const param = await send('GET', '/api/v1/configuration/courses/%00/email_templates', headers.configuration);
    expect(param.statusCode, param.body).toBe(404);
    expect(param.json().error).toContain('course_id');
  });

  it('the shop interface: 422 naming the field or query parameter', async () => {
    const body = await send('PATCH', `/api/v1/products/${ids.product}`, headers.shop, '{"name":"a\\ud800"}');
    expect(body.statusCode, body.body).toBe(422);
    expect(Object.keys(body.json().errors)).toEqual(['name']);
    const query = await send('GET', '/api/v1/products?search=a%00b', headers.shop);
    expect(query.statusCode, query.body).toBe(422);
    expect(Object.keys(query.json().errors)).toEqual(['querystring.search']);
  });

  it('the access interface and the operator\'s platform routes: 400 with qualified names; the operator\'s shop routes: 422', async () => {
    const access = await send('POST', '/api/orders', headers.access, '{"order":{"email":"a\\u0000@example.com"}}');
    expect(access.statusCode, access.body).toBe(400);
    expect(Object.keys(access.json().errors)).toEqual(['body.order.email']);
    const platform = await send('POST', `/admin/v1/platforms/${ids.targetPlatform}/audiobooks`, headers.operator, '{"title":"a\\ud800"}');
    expect(platform.statusCode, platform.body).toBe(400);
    expect(Object.keys(platform.json().errors)).toEqual(['body.title']);
    const shop = await send('POST', `/admin/v1/shops/${ids.targetShop}/senders`, headers.operator, '{"name":"a\\u0000","email":"s@example.com"}');
    expect(shop.statusCode, shop.body).toBe(422);
    expect(Object.keys(shop.json().errors)).toEqual(['name']);
  });
});
