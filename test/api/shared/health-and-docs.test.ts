import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestApp('health');
});
afterAll(() => stack?.close());

describe('GET /health', () => {
  it('answers 200 when PostgreSQL and Temporal are reachable', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', postgres: true, temporal: true });
  });
});

describe('GET /docs', () => {
  it('serves the OpenAPI document generated from the route schemas', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/test', '/api/courses', '/api/audiobooks', '/api/courses/subscribe', '/api/users/enrollments', '/admin/v1/platforms']),
    );
    const grant = doc.paths['/api/courses/subscribe'].post;
    expect(Object.keys(grant.responses)).toEqual(expect.arrayContaining(['200', '400', '401']));
    expect(JSON.stringify(grant.requestBody)).toContain('access_level');
  });

  it('serves the interactive page', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
  });
});

describe('unknown routes', () => {
  it('answer 404 with a JSON body', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: expect.any(String) });
  });
});
