/**
 * Issue 25, item 1: the project's ESLint config (eslint.config.js, what `npm run lint` runs)
 * enforces the layer boundaries of DESIGN.md section 2. Each case lints a probe source placed at a
 * path inside a layer (nothing is written to disk) and expects the import refused or accepted.
 * Type information is switched off and only the import rule runs: the boundaries are syntactic,
 * and a probe path is not in the TypeScript project.
 */
import type { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { ruleOnlyLinter } from '../helpers/lint-probe.ts';

const RULE = '@typescript-eslint/no-restricted-imports';
let eslint: ESLint;

beforeAll(() => {
  eslint = ruleOnlyLinter(RULE);
});

/** The boundary messages of `code` linted as the file `filePath` (relative to the repository). */
async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  expect(result!.messages.filter((m) => m.ruleId !== RULE)).toEqual([]);
  return result!.messages.map((m) => m.message);
}

const valueImport = (from: string) => `import { probe } from '${from}';\nexport const used = probe;\n`;
const typeImport = (from: string) => `import type { Probe } from '${from}';\nexport type Used = Probe;\n`;

interface Case {
  layer: string;
  file: string;
  refused: { code: string; says: RegExp }[];
  allowed: string[];
}

const cases: Case[] = [
  {
    layer: 'api',
    file: 'api/shop/orders/probe.ts',
    refused: [
      { code: valueImport('../../../activities/webhooks/shop.ts'), says: /api does not import activities/ },
      { code: typeImport('../../../activities/access/participants.ts'), says: /api does not import activities/ },
      { code: valueImport('../../../workflows/shop/clear-order.ts'), says: /workflow code as types only/ },
      { code: valueImport('../../../workflows/index.ts'), says: /workflow code as types only/ },
      { code: valueImport('../../../worker/main.ts'), says: /worker or scripts/ },
    ],
    allowed: [
      typeImport('../../../workflows/index.ts'),
      valueImport('../../../workflows/shop/subscription-signals.ts'),
      valueImport('../../../workflows/shop/contracts.ts'),
      valueImport('../../../adapters/mail/index.ts'),
      valueImport('../../../db/repositories/shop/orders.ts'),
      valueImport('../../../domain/shop/order-document.ts'),
    ],
  },
  {
    layer: 'activities',
    file: 'activities/shop/probe.ts',
    refused: [
      { code: valueImport('../../api/shop/orders/routes.ts'), says: /Activities do not import api/ },
      { code: typeImport('../../api/shared/schemas.ts'), says: /Activities do not import api/ },
      { code: valueImport('../../workflows/shop/time-limited-discount-signals.ts'), says: /workflow code as types only/ },
    ],
    allowed: [
      typeImport('../../workflows/shop/time-limited-discount-signals.ts'),
      valueImport('../../adapters/payments/index.ts'),
      valueImport('../../db/repositories/shop/orders.ts'),
      valueImport('../../domain/shop/order-document.ts'),
      valueImport('../shared/deps.ts'),
    ],
  },
  {
    layer: 'domain',
    file: 'domain/shop/probe.ts',
    refused: [
      { code: typeImport('../../db/entities/shop/order.ts'), says: /pure rules/ },
      { code: valueImport('../../api/shop/orders/schemas.ts'), says: /pure rules/ },
      { code: typeImport('../../activities/shop/order-effects.ts'), says: /pure rules/ },
      { code: typeImport('../../workflows/shop/contracts.ts'), says: /pure rules/ },
      { code: valueImport('../../adapters/payments/stripe.ts'), says: /pure rules/ },
    ],
    allowed: [valueImport('./order.ts'), valueImport('../shared/money.ts')],
  },
  {
    layer: 'adapters',
    file: 'adapters/payments/probe.ts',
    refused: [
      { code: valueImport('../../api/shared/errors.ts'), says: /adapters\/ take plain values/ },
      { code: valueImport('../../activities/shop/shop-gateway.ts'), says: /adapters\/ take plain values/ },
      { code: typeImport('../../workflows/shop/contracts.ts'), says: /adapters\/ take plain values/ },
      { code: valueImport('../../db/repositories/shop/subscriber-billing.ts'), says: /adapters\/ take plain values/ },
    ],
    allowed: [valueImport('../../domain/shop/payment-gateway.ts'), valueImport('./stripe.ts'), valueImport('../secrets/secret-box.ts')],
  },
  {
    layer: 'db',
    file: 'db/repositories/shop/probe.ts',
    refused: [
      { code: valueImport('../../../api/shop/orders/schemas.ts'), says: /db\/ imports only domain\/ and adapters\// },
      { code: valueImport('../../../activities/shop/order-effects.ts'), says: /db\/ imports only domain\/ and adapters\// },
      { code: typeImport('../../../workflows/shop/contracts.ts'), says: /db\/ imports only domain\/ and adapters\// },
    ],
    allowed: [valueImport('../../entities/index.ts'), valueImport('../../../adapters/secrets/secret-box.ts'), valueImport('../../../domain/shop/order.ts')],
  },
  {
    layer: 'workflows',
    file: 'workflows/shop/probe.ts',
    refused: [
      { code: valueImport('../../adapters/payments/stripe.ts'), says: /only through activities/ },
      { code: valueImport('../../db/orm.ts'), says: /only through activities/ },
      { code: valueImport('../../activities/index.ts'), says: /activities as types only/ },
    ],
    allowed: [typeImport('../../activities/index.ts'), valueImport('../../domain/shared/workflow-ids.ts')],
  },
];

describe('layer boundaries in eslint.config.js', () => {
  for (const { layer, file, refused, allowed } of cases) {
    describe(`${layer}/`, () => {
      it.each(refused)('refuses $code', async ({ code, says }) => {
        const messages = await refusals(file, code);
        expect(messages).toHaveLength(1);
        expect(messages[0]).toMatch(says);
      });

      it.each(allowed)('allows %s', async (code) => {
        expect(await refusals(file, code)).toEqual([]);
      });
    });
  }
});
