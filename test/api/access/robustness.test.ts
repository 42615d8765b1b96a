/**
 * Issue 3, point 9: no input produces a 500. Every access endpoint gets a table of hostile inputs
 * (malformed JSON, wrong types, nulls, huge strings and batches, deep nesting, control characters,
 * oversized bodies, wrong content types, repeated query parameters, ids that are not uuids) and
 * must answer a 4xx with a small JSON body; the OpenAPI document lists the codes really answered.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../api/app.ts';
import { createAudiobook, createCourse, createPlatform, type TestPlatform } from '../../helpers/fixtures.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let platform: TestPlatform;
let courseId: string;
let audiobookId: string;
let orderId: string;

beforeAll(async () => {
  stack = await startTestApp('robustness');
  platform = await createPlatform(stack.app, 'Robustness');
  courseId = (await createCourse(stack.app, platform.id)).id;
  audiobookId = (await createAudiobook(stack.app, platform.id)).id;
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: { 'x-api-key': platform.apiKey },
    payload: { order: { email: 'buyer@example.com', external_id: `ext-${randomUUID()}`, ordered_contents: [{ course_ids: [courseId] }] } },
  });
  expect(res.statusCode, res.body).toBe(201);
  orderId = res.json().id;
});
afterAll(() => stack?.close());

type Method = 'GET' | 'POST' | 'DELETE';
type Wrapper = 'subscriptions' | 'unsubscriptions' | 'order';

interface Endpoint {
  method: Method;
  /** As routed; `:id` is replaced per request. */
  path: string;
  wrapper?: Wrapper;
  /** A valid body entry (grant or revoke entry, or order). */
  entry?: () => Record<string, unknown>;
  success: number[];
  /** Reply codes the OpenAPI document must list (besides the success codes). */
  documented: number[];
}

const limits = [401, 403, 429];
const bodyErrors = [400, 413, 415];
const endpoints: Endpoint[] = [
  { method: 'GET', path: '/api/test', success: [200], documented: limits },
  { method: 'GET', path: '/api/courses', success: [200], documented: limits },
  { method: 'GET', path: '/api/audiobooks', success: [200], documented: limits },
  { method: 'GET', path: '/api/users/enrollments', success: [200], documented: [400, ...limits] },
  {
    method: 'POST',
    path: '/api/courses/subscribe',
    wrapper: 'subscriptions',
    entry: () => ({ course_id: courseId, email: 'learner@example.com', name: 'Learner', access_level: 0 }),
    success: [200],
    documented: [...bodyErrors, ...limits],
  },
  {
    method: 'POST',
    path: '/api/audiobooks/subscribe',
    wrapper: 'subscriptions',
    entry: () => ({ audiobook_id: audiobookId, email: 'listener@example.com', name: 'Listener' }),
    success: [204],
    documented: [...bodyErrors, ...limits],
  },
  {
    method: 'DELETE',
    path: '/api/courses/unsubscribe',
    wrapper: 'unsubscriptions',
    entry: () => ({ course_id: courseId, email: 'learner@example.com' }),
    success: [204],
    documented: [...bodyErrors, ...limits],
  },
  {
    method: 'DELETE',
    path: '/api/audiobooks/unsubscribe',
    wrapper: 'unsubscriptions',
    entry: () => ({ audiobook_id: audiobookId, email: 'listener@example.com' }),
    success: [204],
    documented: [...bodyErrors, ...limits],
  },
  {
    method: 'POST',
    path: '/api/orders',
    wrapper: 'order',
    entry: () => ({
      email: 'buyer@example.com',
      external_id: `ext-${randomUUID()}`,
      ordinal_number: 'A/1',
      gift_code: 'GIFT',
      ordered_contents: [{ product_id: 'p1', product_name: 'Bundle', course_ids: [courseId], courses: [{ id: courseId, access_level: 1 }], file_keys: [{ key: 'k', name: 'n' }] }],
    }),
    success: [200, 201],
    documented: [...bodyErrors, ...limits],
  },
  { method: 'DELETE', path: '/api/orders/:id', success: [200], documented: [404, ...bodyErrors, ...limits] },
];

const urlOf = (endpoint: Endpoint, id = orderId) => endpoint.path.replace(':id', id);
const hasBody = (endpoint: Endpoint) => endpoint.wrapper !== undefined;

interface Case {
  name: string;
  /** A JS value sent as JSON, or a raw body sent as is. */
  payload?: unknown;
  raw?: string | Buffer;
  contentType?: string;
  query?: string;
  url?: string;
  headers?: Record<string, string>;
  /** The status wanted; by default any 4xx. */
  status?: number | 'any';
}

const KB = 1024;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const huge = (size: number, unit = 'x') => unit.repeat(size);

/** Raw bodies that are not an acceptable request whatever the endpoint. */
const rawBodyCases: Case[] = [
  { name: 'malformed JSON: unclosed object', raw: '{"a":' },
  { name: 'malformed JSON: trailing comma', raw: '{"a":1,}' },
  { name: 'malformed JSON: single quotes', raw: "{'a':1}" },
  { name: 'malformed JSON: bare word', raw: 'subscriptions' },
  { name: 'malformed JSON: NUL byte', raw: '\u0000' },
  { name: 'invalid UTF-8 in a key', raw: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
  { name: 'empty body with JSON content type', raw: '' },
  { name: 'JSON array', raw: '[]' },
  { name: 'JSON array of objects', raw: '[{"a":1}]' },
  { name: 'JSON string', raw: '"hello"' },
  { name: 'JSON number', raw: '42' },
  { name: 'JSON true', raw: 'true' },
  { name: 'JSON null', raw: 'null' },
  { name: 'empty object', payload: {} },
  { name: 'deeply nested object (100 000 levels)', raw: deepObject(100_000) },
  { name: 'deeply nested array (200 000 levels)', raw: deepArray(200_000) },
  { name: 'prototype pollution keys', raw: '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}' },
  { name: 'body over the 1 MB limit', raw: JSON.stringify({ padding: huge(1100 * KB) }), status: 413 },
  { name: 'text/plain with a JSON body', payload: {}, contentType: 'text/plain' },
  { name: 'application/xml', raw: '<subscriptions/>', contentType: 'application/xml' },
  { name: 'form-urlencoded', raw: 'subscriptions=1', contentType: 'application/x-www-form-urlencoded' },
  { name: 'multipart without boundary', raw: 'x', contentType: 'multipart/form-data' },
  { name: 'JSON declared as UTF-16', raw: '{}', contentType: 'application/json; charset=utf-16' },
  { name: 'a content type that is not one', raw: '{}', contentType: ';;;' },
];

/** Bodies of the right outer shape whose wrapper or entries are wrong. */
function bodyCases(endpoint: Endpoint): Case[] {
  const wrapper = endpoint.wrapper!;
  const entry = endpoint.entry!;
  const wrap = (value: unknown) => ({ [wrapper]: value });
  const cases: Case[] = [
    ...[null, 1, 'x', true, [], [null], [1], [[]], [{}]].map((value) => ({ name: `${wrapper}: ${JSON.stringify(value)}`, payload: wrap(value) })),
    { name: `${wrapper}: deeply nested`, raw: `{"${wrapper}":${deepObject(50_000)}}` },
    { name: 'unknown top-level field only', payload: { [`${wrapper}_x`]: entry() } },
  ];
  const fields = Object.keys(entry());
  // Wrong for every field: a 4xx; possibly right for some (a number as external_id, null for an optional field): no 5xx.
  const wrongValues: [string, unknown, Case['status']][] = [
    ['null', null, 'any'],
    ['a number', 12345, 'any'],
    ['a boolean', true, undefined],
    ['an object', { a: 1 }, undefined],
    ['an array', ['a'], undefined],
    ['an empty string', '', 'any'],
    ['a 100 kB string', huge(100 * KB), undefined],
    ['a NUL character', 'a\u0000b', undefined],
    ['a lone surrogate', 'a\ud800b', undefined],
    ['control characters', '\u0007\u001b[31m\r\n\t', 'any'],
    ['right-to-left override and emoji', '\u202egnp.exe 🎓 Zoë', 'any'],
    ['a deeply nested object', JSON.parse(deepObject(2_000)), undefined],
  ];
  for (const field of fields) {
    for (const [label, value, status] of wrongValues) {
      cases.push({ name: `${field}: ${label}`, payload: wrap({ ...entry(), [field]: value }), status });
    }
    const { [field]: _omitted, ...rest } = entry();
    cases.push({ name: `${field}: missing`, payload: wrap(rest), status: 'any' });
  }
  cases.push(
    { name: 'e-mail of 100 kB', payload: wrap({ ...entry(), email: `${huge(100 * KB, 'a')}@example.com` }) },
    { name: 'e-mail with a NUL character', payload: wrap({ ...entry(), email: 'a\u0000b@example.com' }) },
    { name: 'e-mail with unicode', payload: wrap({ ...entry(), email: 'zoë@exämple.com' }), status: 'any' },
  );
  if (wrapper === 'order') {
    const item = (change: Record<string, unknown>) => wrap({ ...entry(), ordered_contents: [{ ...change }] });
    const unknownIds = (n: number) => Array.from({ length: n }, () => randomUUID());
    cases.push(
      { name: 'ordered_contents: 10 000 items', payload: wrap({ ...entry(), ordered_contents: Array.from({ length: 10_000 }, () => ({ course_ids: [courseId] })) }) },
      { name: 'course_ids: 10 000 ids', payload: item({ course_ids: unknownIds(10_000) }) },
      { name: '20 000 unknown course ids in 500 items', payload: wrap({ ...entry(), ordered_contents: Array.from({ length: 500 }, () => ({ course_ids: unknownIds(40) })) }) },
      { name: 'course_ids: null members', payload: item({ course_ids: [null] }) },
      { name: 'courses: wrong access_level', payload: item({ courses: [{ id: courseId, access_level: 7 }] }) },
      { name: 'courses: strings', payload: item({ courses: ['x'] }) },
      { name: 'file_keys: an object', payload: item({ file_keys: { key: 'k' } }) },
      { name: 'file_keys: NUL in a member', payload: item({ file_keys: [{ key: 'a\u0000b' }] }) },
      { name: 'file_keys: NUL in an extra member', payload: item({ file_keys: [{ key: 'k', extra: 'a\u0000b' }] }) },
      { name: 'file_keys: NUL in a key', payload: item({ file_keys: [{ key: 'k', ['a\u0000b']: 1 }] }) },
      { name: 'file_keys: lone surrogate in chat', payload: item({ file_keys: [{ key: 'k', chat: 'a\ud800b' }] }) },
      { name: 'file_keys: deeply nested chat', raw: `{"order":${JSON.stringify({ ...entry(), ordered_contents: [{ course_ids: [courseId], file_keys: [{ key: 'k', chat: 0 }] }] }).replace('"chat":0', `"chat":${deepObject(20_000)}`)}}` },
      { name: 'file_keys: chat nested 40 levels', payload: item({ course_ids: [courseId], file_keys: [{ key: 'k', chat: JSON.parse(deepObject(40)) }] }) },
      { name: 'file_keys: chat nested 20 levels', payload: item({ course_ids: [courseId], file_keys: [{ key: 'k', chat: JSON.parse(deepObject(20)) }] }), status: 201 },
      { name: 'file_keys: a member without key', payload: item({ course_ids: [courseId], file_keys: [{ name: 'n' }] }) },
      { name: 'file_keys: a javascript: uri', payload: item({ course_ids: [courseId], file_keys: [{ key: 'k', uri: 'javascript:alert(1)' }] }) },
      { name: 'product_id: an object', payload: item({ product_id: { a: 1 } }) },
      { name: 'product_id: NaN-like number', raw: `{"order":${JSON.stringify({ ...entry(), ordered_contents: [{ product_id: 0 }] }).replace('"product_id":0', '"product_id":1e999')}}`, status: 'any' },
      { name: 'external_id: a float', payload: wrap({ ...entry(), external_id: 1.5 }) },
      { name: 'external_id: a huge integer', raw: `{"order":${JSON.stringify({ ...entry(), external_id: 0 }).replace('"external_id":0', `"external_id":${'9'.repeat(400)}`)}}`, status: 'any' },
    );
  } else {
    const [idField] = Object.keys(entry());
    const id = entry()[idField!];
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ [idField!]: id, email: `${i}@x.co` }));
    cases.push(
      { name: '10 000 entries', payload: wrap(many(10_000)) },
      { name: '1001 entries', payload: wrap(many(1001)) },
      { name: 'an unknown id', payload: wrap({ ...entry(), [idField!]: randomUUID() }) },
      { name: 'an id that is not a uuid', payload: wrap({ ...entry(), [idField!]: '../../etc/passwd' }) },
      { name: 'one invalid entry among valid ones', payload: wrap([entry(), { ...entry(), email: 'nope' }, entry()]) },
    );
  }
  return cases;
}

const queryCases: Case[] = [
  { name: 'repeated email', query: 'email=a@example.com&email=b@example.com' },
  { name: 'bracketed email', query: 'email[]=a@example.com', status: 'any' },
  { name: 'nested email', query: 'email[a]=b', status: 'any' },
  { name: 'email of 100 kB', query: `email=${huge(100 * KB, 'a')}` },
  { name: 'email with a NUL character', query: 'email=a%00b@example.com' },
  { name: 'email with control characters', query: 'email=%07%1b%0d%0a', status: 'any' },
  { name: 'email with a lone surrogate', query: 'email=%ED%A0%80', status: 'any' },
  { name: 'malformed percent-encoding', query: 'email=%E0%A4%A&x=%ZZ', status: 'any' },
  { name: 'unicode email', query: `email=${encodeURIComponent('zoë@exämple.com')}`, status: 'any' },
  { name: 'SQL in email', query: `email=${encodeURIComponent("' or 1=1 --")}`, status: 'any' },
  { name: '1000 parameters', query: Array.from({ length: 1000 }, (_, i) => `p${i}=${i}`).join('&'), status: 'any' },
];

const pathIdCases: Case[] = [
  { name: 'a word', url: '/api/orders/not-a-uuid', status: 404 },
  { name: 'a number', url: '/api/orders/12345', status: 404 },
  { name: 'a NUL character', url: '/api/orders/%00', status: 404 },
  { name: 'a uuid with a NUL character', url: `/api/orders/${randomUUID()}%00`, status: 404 },
  { name: 'a uuid with trailing text', url: `/api/orders/${randomUUID()}x`, status: 404 },
  { name: 'an unknown uuid', url: `/api/orders/${randomUUID()}`, status: 404 },
  { name: 'a nil uuid', url: '/api/orders/00000000-0000-0000-0000-000000000000', status: 404 },
  { name: 'a 10 kB id', url: `/api/orders/${huge(10 * KB)}`, status: 414 },
  { name: 'unicode', url: `/api/orders/${encodeURIComponent('zoë-🎓')}`, status: 404 },
  { name: 'a traversal', url: '/api/orders/..%2F..%2Fcourses', status: 404 },
  { name: 'malformed percent-encoding', url: '/api/orders/%E0%A4%A', status: 'any' },
  { name: 'an empty id', url: '/api/orders/', status: 404 },
];

const headerCases: Case[] = [
  { name: 'a Referer that is not a URL', headers: { referer: '::::' }, status: 401 },
  { name: 'a Referer with an IPv6 literal left open', headers: { referer: 'http://[::1/' }, status: 401 },
  { name: 'a huge Referer', headers: { referer: `https://${huge(8 * KB, 'a')}.example.com/` }, status: 401 },
];

/** `key` null: no `X-API-KEY` at all. */
function send(app: App, endpoint: Endpoint, c: Case, key: string | null = platform.apiKey): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...(key === null ? {} : { 'x-api-key': key }), ...c.headers };
  const body = c.raw ?? (c.payload === undefined ? undefined : JSON.stringify(c.payload));
  if (body !== undefined) headers['content-type'] = c.contentType ?? 'application/json';
  const url = c.url ?? `${urlOf(endpoint)}${c.query ? `?${c.query}` : ''}`;
  return app.inject({ method: endpoint.method, url, headers, ...(body === undefined ? {} : { payload: body }) });
}

/** What is wrong with a reply, or null: never a 5xx; a 4xx carries a small, well-formed JSON object. */
function problemWith(res: LightMyRequestResponse, endpoint: Endpoint, c: Case): string | null {
  const status = res.statusCode;
  const said = `${status} ${res.body.slice(0, 300)}`;
  if (status >= 500) return said;
  if (c.status === 'any') {
    if (status < 400 && !endpoint.success.includes(status)) return said;
  } else if (c.status !== undefined ? status !== c.status : status < 400) {
    return `wanted ${c.status ?? '4xx'}, got ${said}`;
  }
  if (status < 400) return null;
  if (!/^application\/json/.test(String(res.headers['content-type']))) return `not JSON: ${said}`;
  let body: unknown;
  try {
    body = res.json();
  } catch {
    return `unparsable: ${said}`;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `not an object: ${said}`;
  const fields = body as Record<string, unknown>;
  const invalidKey = endpoint.wrapper === 'order' ? undefined : `invalid_${endpoint.wrapper}`;
  const listsEntries = status === 400 && invalidKey !== undefined && Array.isArray(fields[invalidKey]);
  if (!listsEntries && typeof fields.error !== 'string') return `no error: ${said}`;
  if (Object.keys(fields).some((key) => !['error', 'errors', invalidKey].includes(key))) return `more than {error, errors}: ${said}`;
  if ([401, 403, 404, 429].includes(status) && (Object.keys(fields).join() !== 'error' || res.body.length > 300)) return `not a small {error}: ${said}`;
  return null;
}

async function problems(app: App, endpoint: Endpoint, cases: Case[], key?: string | null): Promise<string[]> {
  const found: string[] = [];
  for (const c of cases) {
    const res = await send(app, endpoint, c, key);
    const problem = problemWith(res, endpoint, c);
    if (problem) found.push(`${c.name}: ${problem}`);
  }
  return found;
}

const named = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.path}`;

describe.each(endpoints.map((e) => [named(e), e] as const))('%s', (_name, endpoint) => {
  it('answers a valid request with its success code (the table below is about the inputs alone)', async () => {
    const c: Case = endpoint.entry ? { name: 'valid', payload: { [endpoint.wrapper!]: endpoint.entry() } } : { name: 'valid', query: 'email=learner@example.com' };
    const res = await send(stack.app, endpoint, c);
    expect(endpoint.success, res.body).toContain(res.statusCode);
  });

  it('answers every malformed, oversized or mistyped body with a 4xx and a JSON error object', async () => {
    const cases = hasBody(endpoint) ? [...rawBodyCases, ...bodyCases(endpoint)] : rawBodyCases.map((c) => ({ ...c, status: 'any' as const }));
    expect(await problems(stack.app, endpoint, cases)).toEqual([]);
  }, 60_000);

  it('answers hostile query strings, path ids and headers without a 5xx', async () => {
    const cases = [
      ...queryCases.map((c) => (endpoint.path === '/api/users/enrollments' ? c : { ...c, status: 'any' as const })),
      ...(endpoint.path.includes(':id') ? pathIdCases : []),
      ...headerCases,
    ];
    expect(await problems(stack.app, endpoint, cases)).toEqual([]);
  });

  it('answers 401 {error} without a valid key, whatever the body', async () => {
    const cases = [...rawBodyCases, { name: 'no body' }].map((c) => ({ ...c, status: 401 }));
    expect(await problems(stack.app, endpoint, cases, null)).toEqual([]);
    expect(await problems(stack.app, endpoint, [{ name: 'a 100 kB key', status: 401 }], huge(100 * KB))).toEqual([]);
    expect(await problems(stack.app, endpoint, [{ name: 'a key with control characters', status: 401 }], 'ak_\u0007\u001b')).toEqual([]);
  });
});

describe('404, 401, 429 and 403 replies', () => {
  it('unknown routes and methods under /api answer 404 with a small {error}', async () => {
    const endpoint: Endpoint = { method: 'GET', path: '/api/nope', success: [], documented: [] };
    const cases: Case[] = [
      { name: 'unknown path', status: 404 },
      { name: 'unknown nested path', url: '/api/courses/x/y', status: 404 },
      { name: 'GET on a POST-only route', url: '/api/orders', status: 404 },
    ];
    expect(await problems(stack.app, endpoint, cases)).toEqual([]);
    const put = await stack.app.inject({ method: 'PUT', url: '/api/orders', headers: { 'x-api-key': platform.apiKey } });
    expect(problemWith(put, endpoint, { name: 'PUT', status: 404 })).toBeNull();
  });

  describe('with the rate limits on', () => {
    let limited: TestStack;
    beforeAll(async () => {
      limited = await startTestApp('robustness-limits', { rateLimits: { enabled: true } });
    });
    afterAll(() => limited?.close());

    // Each endpoint speaks from an address of its own, so the keyless counts never meet.
    it.each(endpoints.map((e, i) => [named(e), e, `10.77.0.${i + 1}`] as const))(
      '%s: keyless requests get 401, then 429, then 403 with Retry-After, whatever the body',
      async (_name, endpoint, ip) => {
        const replies: LightMyRequestResponse[] = [];
        for (let i = 0; i < 16; i++) {
          const c = rawBodyCases[i % rawBodyCases.length]!;
          const headers: Record<string, string> = { ...(i % 2 === 0 ? {} : { 'x-api-key': `ak_guess_${i}` }) };
          const body = c.raw ?? JSON.stringify(c.payload ?? {});
          if (endpoint.method !== 'GET') headers['content-type'] = c.contentType ?? 'application/json';
          replies.push(await limited.app.inject({ method: endpoint.method, url: urlOf(endpoint), remoteAddress: ip, headers, ...(endpoint.method === 'GET' ? {} : { payload: body }) }));
        }
        // A valid key does not help a blocked address.
        replies.push(await limited.app.inject({ method: endpoint.method, url: urlOf(endpoint), remoteAddress: ip, headers: { 'x-api-key': platform.apiKey } }));
        expect(replies.map((r) => r.statusCode)).toEqual([...Array(5).fill(401), ...Array(10).fill(429), 403, 403]);
        const found = replies.map((r) => problemWith(r, endpoint, { name: 'limited', status: r.statusCode })).filter(Boolean);
        expect(found).toEqual([]);
        for (const r of replies.filter((r) => r.statusCode !== 401)) expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      },
    );
  });
});

describe('the OpenAPI document', () => {
  it('lists for every access route the reply codes it answers, errors as {error} objects', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    for (const endpoint of endpoints) {
      const operation = doc.paths[endpoint.path.replace(':id', '{id}')]?.[endpoint.method.toLowerCase()];
      const codes = Object.keys(operation?.responses ?? {}).sort();
      expect({ route: named(endpoint), codes }).toEqual({ route: named(endpoint), codes: [...endpoint.success, ...endpoint.documented].map(String).sort() });
      for (const code of [...endpoint.documented, 400].filter((c) => codes.includes(String(c)))) {
        const schema = operation.responses[code].content['application/json'].schema;
        const variants = schema.anyOf ?? schema.oneOf ?? [schema];
        const resolved = variants.map((v: any) => (v.$ref ? doc.components?.schemas?.[v.$ref.split('/').pop()] : v));
        expect({ route: named(endpoint), code, unresolved: resolved.filter((v: unknown) => !v).length }).toEqual({ route: named(endpoint), code, unresolved: 0 });
        expect(resolved.some((v: any) => v.properties?.error?.type === 'string' || v.properties?.[`invalid_${endpoint.wrapper}`])).toBe(true);
      }
    }
  });
});
