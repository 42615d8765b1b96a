import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../../api/app.ts';
import { configure, createConfigurationKey, type TestConfigurationKey } from '../../helpers/configuration.ts';
import { createCourse, createPlatform, operator, type TestPlatform } from '../../helpers/fixtures.ts';
import { ADMIN_TOKEN, startTestApp, type TestStack } from '../../helpers/stack.ts';

/**
 * The test environment at its own address (`BETA_PORT`, the spec's `{beta_base_url}`): the api
 * built a second time with `sandboxOnly`, as api/main.ts does, on the same database. There a sandbox
 * twin's keys work on the same paths; a production platform's keys are 401; the operator and shop
 * routes are not served. At the main address the twin's key keeps working.
 */
let stack: TestStack;
let beta: App;
let platform: TestPlatform;
let twin: { id: string; api_key: string; courses: { id: string; source_id: string }[] };
let platformConfig: TestConfigurationKey;
let twinConfig: TestConfigurationKey;

beforeAll(async () => {
  stack = await startTestApp('beta-address');
  beta = await buildApp({ orm: stack.orm, temporal: stack.temporal, taskQueue: stack.taskQueue, adminToken: ADMIN_TOKEN, rateLimits: { enabled: false }, sandboxOnly: true });
  platform = await createPlatform(stack.app, 'Beta academy');
  await createCourse(stack.app, platform.id, { title: 'Only course' });
  const res = await stack.app.inject({ method: 'POST', url: `/admin/v1/platforms/${platform.id}/sandbox`, headers: operator });
  expect(res.statusCode, res.body).toBe(201);
  twin = res.json().data;
  platformConfig = await createConfigurationKey(stack.app, platform.id);
  twinConfig = await createConfigurationKey(stack.app, twin.id);
});
afterAll(async () => {
  await beta?.close();
  await stack?.close();
});

const get = (app: App, url: string, key: string) => app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });

describe('the beta address serves sandbox platforms only', () => {
  it("answers a sandbox twin's access key on the same paths", async () => {
    expect((await get(beta, '/api/test', twin.api_key)).statusCode).toBe(200);
    const courses = await get(beta, '/api/courses', twin.api_key);
    expect(courses.statusCode, courses.body).toBe(200);
    expect(courses.json().courses.map((c: { id: string }) => c.id)).toEqual(twin.courses.map((c) => c.id));
  });

  it("refuses a production platform's access key with 401, naming why", async () => {
    for (const url of ['/api/test', '/api/courses']) {
      const res = await get(beta, url, platform.apiKey);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().error).toMatch(/sandbox platforms only/);
    }
    // An unknown key is 401 as everywhere.
    expect((await get(beta, '/api/test', 'ak_unknown')).statusCode).toBe(401);
  });

  it("answers the twin's configuration key and refuses the production platform's", async () => {
    const own = await configure(beta, 'GET', '/self', twinConfig.token);
    expect(own.statusCode, own.body).toBe(200);
    const refused = await configure(beta, 'GET', '/self', platformConfig.token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toMatch(/sandbox platforms only/);
    // A write is refused before it touches anything.
    const write = await configure(beta, 'PATCH', '/platform', platformConfig.token, { default_email_sender: { name: 'X', email: 'x@academy.test' } });
    expect(write.statusCode).toBe(401);
  });

  it('serves no operator or shop routes', async () => {
    expect((await beta.inject({ method: 'GET', url: `/admin/v1/platforms/${twin.id}/sandbox`, headers: operator })).statusCode).toBe(404);
    expect((await beta.inject({ method: 'GET', url: '/api/v1/products', headers: { 'x-api-key': twin.api_key } })).statusCode).toBe(404);
    expect((await beta.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});

describe('the main address', () => {
  it('keeps serving both the platform and its sandbox twin', async () => {
    expect((await get(stack.app, '/api/test', platform.apiKey)).statusCode).toBe(200);
    expect((await get(stack.app, '/api/test', twin.api_key)).statusCode).toBe(200);
    expect((await configure(stack.app, 'GET', '/self', twinConfig.token)).statusCode).toBe(200);
    expect((await configure(stack.app, 'GET', '/self', platformConfig.token)).statusCode).toBe(200);
  });
});

describe('over a real socket', () => {
  it('listens on a port of its own with the same rules', async () => {
    const listening = await buildApp({ orm: stack.orm, temporal: stack.temporal, taskQueue: stack.taskQueue, adminToken: ADMIN_TOKEN, rateLimits: { enabled: false }, sandboxOnly: true });
    try {
      const address = await listening.listen({ port: 0, host: '127.0.0.1' });
      const call = (key: string) => fetch(`${address}/api/test`, { headers: { 'x-api-key': key } });
      expect((await call(twin.api_key)).status).toBe(200);
      expect((await call(platform.apiKey)).status).toBe(401);
    } finally {
      await listening.close();
    }
  });
});
