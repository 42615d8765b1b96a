/**
 * The erasure request at the API (issue 29), without a worker: what the request leaves behind
 * (the workflow's id, input and history, the request row, the log lines) holds the e-mail nowhere,
 * and racing requests make one workflow execution.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform } from '../../helpers/fixtures.ts';
import { createTestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';
import { operator } from '../../helpers/fixtures.ts';

const u = randomBytes(4).toString('hex');
const email = `Quinn.${u}@Example.com`;
const lines: string[] = [];
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestApp('admin-personal-data', { logLevel: 'info', logStream: { write: (line) => void lines.push(line) } });
});
afterAll(() => stack?.close());

const inject = (method: 'GET' | 'POST', url: string, payload?: object) => stack.app.inject({ method, url, headers: operator, ...(payload && { payload }) });

describe.each(['shop', 'platform'] as const)('%s erasure requests', (tenant) => {
  let base: string;
  beforeAll(async () => {
    base = tenant === 'shop' ? `/admin/v1/shops/${(await createTestShop(stack.app, 'pd')).id}/customers` : `/admin/v1/platforms/${(await createPlatform(stack.app, 'PD academy')).id}/participants`;
  });

  it('12 racing requests: one workflow execution, started with the request row, never the e-mail', async () => {
    const replies = await Promise.all(Array.from({ length: 12 }, () => inject('POST', `${base}/erase`, { email })));
    expect(replies.map((r) => r.statusCode)).toEqual(Array(12).fill(202));
    const ids = new Set(replies.map((r) => r.json().data.workflow_id as string));
    expect(ids.size).toBe(1);
    const [workflowId] = [...ids] as [string];
    const runs = [];
    for await (const run of stack.temporal.workflow.list({ query: `WorkflowId = '${workflowId}'` })) runs.push(run);
    expect(runs).toHaveLength(1);
    const handle = stack.temporal.workflow.getHandle(workflowId);
    const history = JSON.stringify(await handle.fetchHistory());
    expect(history.toLowerCase()).not.toContain(u);
    const [row]: Record<string, unknown>[] = await stack.orm.em.fork().execute('select * from personal_data_erasures where workflow_id = ?', [workflowId]);
    expect(row).toMatchObject({ generation: 12, status: 'running', email_hash: workflowId.split('/').pop() });
    expect(JSON.stringify(row).toLowerCase()).not.toContain(u);
    expect(String(row!.email_sealed)).toMatch(/^v1\./);

    const read = await inject('GET', `${base}/erasures/${row!.email_hash}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toMatchObject({ workflow_id: workflowId, status: 'running', counts: {}, completed_at: null });
    await handle.terminate('test cleanup');
  });

  it('the request lines of export and erase name no e-mail', async () => {
    expect((await inject('GET', `${base}/export?email=${encodeURIComponent(email)}`)).statusCode).toBe(200);
    const logged = lines.join('\n');
    expect(logged).toContain('/export?email=[redacted]');
    expect(logged.toLowerCase()).not.toContain(u);
  });
});
