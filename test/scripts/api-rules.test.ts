/**
 * Issue 25, items 3 and 5: eslint.config.js keeps two rules of the api. Queries and writes go
 * through db/repositories (no entity-manager data call in api/), and workflows are started and
 * signalled only through the typed facade in api/shared/workflow-starts/. Each case lints a probe
 * source at a path in api/ (nothing is written to disk) with only that rule on.
 */
import type { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { probeMessages, ruleOnlyLinter } from '../helpers/lint-probe.ts';

const RULE = 'no-restricted-syntax';
let eslint: ESLint;

beforeAll(() => {
  eslint = ruleOnlyLinter(RULE);
});

async function messages(filePath: string, body: string): Promise<string[]> {
  const code = `export async function probe(em: any, tx: any, request: any, client: any) {\n${body}\n}\n`;
  return probeMessages(eslint, filePath, code);
}

const route = 'api/shop/orders/probe.ts';
const facade = 'api/shared/workflow-starts/probe.ts';

describe('api rules in eslint.config.js', () => {
  it.each([
    'await em.find("Order", {});',
    'await request.em.findOne("Order", 1);',
    'await em.nativeDelete("Order", { id: 1 });',
    'await tx.execute("select 1");',
    'em.create("Order", {}); await em.flush();',
    'await request.em.refresh({});',
    'em.assign({}, {});',
  ])('refuses %s in a route', async (body) => {
    const found = await messages(route, body);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((m) => /db\/repositories/.test(m))).toBe(true);
  });

  it.each(['await request.em.transactional(async (tx: any) => tx);', 'const fork = request.em.fork();', 'const rows = [1].find((n) => n > 0);'])('allows %s in a route', async (body) => {
    expect(await messages(route, body)).toEqual([]);
  });

  it.each(['await client.workflow.start("clearOrder", {});', 'client.workflow.getHandle("id");', 'await request.server.temporal.workflow.signalWithStart("x", {});'])(
    'refuses %s in a route, allows it in the facade',
    async (body) => {
      expect(await messages(route, body)).toEqual([expect.stringMatching(/app\.workflows/)]);
      expect(await messages(facade, body)).toEqual([]);
    },
  );

  it('refuses data calls in the facade too', async () => {
    expect(await messages(facade, 'await em.flush();')).toEqual([expect.stringMatching(/db\/repositories/)]);
  });
});

describe('entities in api/', () => {
  it('are imported as types only: a row comes from a repository function, never from an entity class handed to the ORM', async () => {
    const imports = ruleOnlyLinter('@typescript-eslint/no-restricted-imports');
    const lint = (code: string) => probeMessages(imports, route, code);
    expect(await lint("import { Order } from '../../../db/entities/shop/index.ts';\nexport const entity = Order;\n")).toEqual([expect.stringMatching(/entities as types only/)]);
    expect(await lint("import type { IOrder } from '../../../db/entities/shop/index.ts';\nexport type Row = IOrder;\n")).toEqual([]);
  });
});
