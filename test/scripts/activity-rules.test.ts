/**
 * Issue 42, item 1: activities decide and db/repositories run the statements. eslint.config.js
 * refuses an entity manager's data calls in activities/ with the api's selectors (one list,
 * `directDataAccess`); an activity may still open a transaction and hand its manager on. Each case
 * lints a probe source at a path in activities/ (nothing is written to disk) with only that rule on.
 */
import type { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { probeMessages, ruleOnlyLinter } from '../helpers/lint-probe.ts';

const RULE = 'no-restricted-syntax';
let eslint: ESLint;

beforeAll(() => {
  eslint = ruleOnlyLinter(RULE);
});

async function messages(body: string): Promise<string[]> {
  const code = `export async function probe(em: any, tx: any, orm: any, shopEm: any, tenantEm: any, repo: any) {\n${body}\n}\n`;
  return probeMessages(eslint, 'activities/shop/probe.ts', code);
}

describe('the activities rule in eslint.config.js', () => {
  it.each([
    'await em.findOne("OrderStatus", 1);',
    'await tx.execute("update shop_orders set paid = true");',
    'await em.getConnection().execute("select 1");',
    'await orm.em.find("Order", {});',
    'await shopEm(orm, "shop").findOne("OrderStatus", 1);',
    'await tenantEm(orm, "platform").count("Participant", {});',
    'await orm.em.fork().nativeUpdate("Order", {}, {});',
    'em.assign({}, {}); await em.flush();',
  ])('refuses %s in an activity', async (body) => {
    const found = await messages(body);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((m) => /db\/repositories/.test(m))).toBe(true);
  });

  it.each([
    'await em.transactional(async (t: any) => repo.markOrderCleared(t, 1));',
    'const fork = orm.em.fork();',
    'await repo.findOrderStatus(shopEm(orm, "shop"), 1);',
    'const first = [1, 2].find((n) => n > 1);',
  ])('allows %s in an activity', async (body) => {
    expect(await messages(body)).toEqual([]);
  });
});
