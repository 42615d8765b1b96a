import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourse, createPlatform, type TestCourse, type TestPlatform } from '../../helpers/fixtures.ts';
import { createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/** Issue 14 through app.inject: the shop's course platform link and the products' `course_access`. */
let stack: TestStack;
let platform: TestPlatform;
let otherPlatform: TestPlatform;
let course: TestCourse;
let foreignCourse: TestCourse;
let shop: TestShop;
let unlinked: TestShop;

beforeAll(async () => {
  stack = await startTestApp('shop-course-access');
  [platform, otherPlatform] = await Promise.all([createPlatform(stack.app), createPlatform(stack.app)]);
  [course, foreignCourse] = await Promise.all([createCourse(stack.app, platform.id), createCourse(stack.app, otherPlatform.id)]);
  [shop, unlinked] = await Promise.all([createTestShop(stack.app, 'ca-linked'), createTestShop(stack.app, 'ca-unlinked')]);
});
afterAll(() => stack.close());

const link = (shopId: string, body: unknown) => stack.app.inject({ method: 'PUT', url: `/admin/v1/shops/${shopId}/course_platform`, headers: operator, payload: body as object });
const linked = (shopId: string) => stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopId}/course_platform`, headers: operator });
const product = (target: TestShop, payload: object, method: 'POST' | 'PATCH' = 'POST', id?: number) =>
  stack.app.inject({ method, url: id ? `/api/v1/products/${id}` : '/api/v1/products', headers: target.headers(), payload });

describe('the course platform link', () => {
  it('is null until set, then answers the platform; PUT again relinks', async () => {
    expect((await linked(shop.id)).json()).toEqual({ data: { shop_id: shop.id, platform_id: null } });
    const res = await link(shop.id, { platform_id: otherPlatform.id });
    expect(res.statusCode).toBe(200);
    expect((await link(shop.id, { platform_id: platform.id })).json()).toEqual({ data: { shop_id: shop.id, platform_id: platform.id } });
    expect((await linked(shop.id)).json()).toEqual({ data: { shop_id: shop.id, platform_id: platform.id } });
  });

  it('refuses an unknown platform or a malformed body with 422 naming platform_id, and leaves the link', async () => {
    const unknown = await link(shop.id, { platform_id: randomUUID() });
    expect(unknown.statusCode).toBe(422);
    expect(Object.keys(unknown.json().errors)).toEqual(['platform_id']);
    const malformed = await link(shop.id, { platform_id: 'nope' });
    expect(malformed.statusCode).toBe(422);
    expect(JSON.stringify(malformed.json().errors)).toContain('platform_id');
    expect((await link(shop.id, {})).statusCode).toBe(422);
    expect((await linked(shop.id)).json().data.platform_id).toBe(platform.id);
  });

  it('answers 404 for an unknown shop, 401 without the operator token', async () => {
    expect((await link(randomUUID(), { platform_id: platform.id })).statusCode).toBe(404);
    expect((await linked(randomUUID())).statusCode).toBe(404);
    expect((await stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/course_platform` })).statusCode).toBe(401);
  });
});

describe('a product\'s course_access', () => {
  it('is stored and answered for courses of the linked platform; [] by default; PATCH [] clears it', async () => {
    const access = [{ course_id: course.id, access_level: 1 }];
    const created = await product(shop, { name: 'Course', price: '10.00', distribution: 'course', course_access: access });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.course_access).toEqual(access);
    const id = created.json().data.id;
    const read = await stack.app.inject({ method: 'GET', url: `/api/v1/products/${id}`, headers: shop.headers('read') });
    expect(read.json().data.course_access).toEqual(access);
    const plain = await product(shop, { name: 'Book', price: '10.00' });
    expect(plain.json().data.course_access).toEqual([]);
    const cleared = await product(shop, { course_access: [] }, 'PATCH', id);
    expect(cleared.json().data.course_access).toEqual([]);
  });

  it('refuses a course of another platform (a foreign course id) with 422 on course_access, storing nothing', async () => {
    const res = await product(shop, { name: 'Foreign', price: '10.00', course_access: [{ course_id: foreignCourse.id, access_level: 0 }] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.course_access).toEqual([`not courses of the linked platform: ${foreignCourse.id}`]);
    const unknownId = randomUUID();
    const patched = await product(shop, { name: 'Bad patch', price: '1.00' });
    const patch = await product(shop, { course_access: [{ course_id: unknownId, access_level: 0 }] }, 'PATCH', patched.json().data.id);
    expect(patch.statusCode).toBe(422);
    expect(patch.json().errors.course_access[0]).toContain(unknownId);
    const list = await stack.app.inject({ method: 'GET', url: '/api/v1/products?search=Foreign', headers: shop.headers() });
    expect(list.json().data).toEqual([]);
  });

  it('refuses course_access with 422 when the shop has no linked platform', async () => {
    const res = await product(unlinked, { name: 'Course', price: '10.00', course_access: [{ course_id: course.id, access_level: 0 }] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.course_access[0]).toContain('not linked to a course platform');
  });

  it('refuses a level other than 0 or 1, a malformed id and a course named twice, naming the field', async () => {
    for (const access of [
      [{ course_id: course.id, access_level: 2 }],
      [{ course_id: 'not-a-uuid', access_level: 0 }],
      [{ course_id: course.id, access_level: 0 }, { course_id: course.id, access_level: 1 }],
      [{ course_id: course.id }],
    ]) {
      const res = await product(shop, { name: 'Bad', price: '1.00', course_access: access });
      expect(res.statusCode, JSON.stringify(access)).toBe(422);
      expect(JSON.stringify(res.json().errors)).toContain('course_access');
    }
  });

  it('is copied by a clone', async () => {
    const access = [{ course_id: course.id, access_level: 0 }];
    const source = await product(shop, { name: 'Original', price: '5.00', course_access: access });
    const clone = await stack.app.inject({ method: 'POST', url: `/api/v1/products/${source.json().data.id}/clone`, headers: shop.headers(), payload: {} });
    expect(clone.statusCode).toBe(201);
    expect(clone.json().data.course_access).toEqual(access);
  });
});

describe('OpenAPI', () => {
  it('documents the link routes and course_access on the product, in the write bodies and the reply', async () => {
    const doc = (await stack.app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(doc.paths['/admin/v1/shops/{shop_id}/course_platform'].put).toBeDefined();
    expect(doc.paths['/admin/v1/shops/{shop_id}/course_platform'].get).toBeDefined();
    expect(doc.components.schemas.ShopProduct.properties.course_access).toBeDefined();
    const body = doc.paths['/api/v1/products'].post.requestBody.content['application/json'].schema;
    expect(JSON.stringify(body)).toContain('course_access');
  });
});
