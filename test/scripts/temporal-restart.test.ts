/**
 * Issue 41, item 4: `npm start` restarts a Temporal dev server that dies, as it does the api, the
 * worker and PostgreSQL: on the same address and SQLite file, so what it held is there again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import { sleep } from '../../scripts/stack/lifecycle.ts';
import { startTemporalDevServer, type TemporalServer } from '../../scripts/stack/temporal.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-restart-'));
let server: TemporalServer | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function until<T>(read: () => T | null | Promise<T | null>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await Promise.resolve(read()).catch(() => null);
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(100);
  }
}

async function describeWorkflow(address: string, workflowId: string): Promise<string> {
  const connection = await Connection.connect({ address, connectTimeout: '2s' });
  try {
    const handle = new Client({ connection }).workflow.getHandle(workflowId);
    return (await handle.describe()).status.name;
  } finally {
    await connection.close();
  }
}

describe('the dev server under restartOnCrash', () => {
  it('comes back on the same address with its data after a SIGKILL, and stop() stops it for good', async () => {
    const lines: string[] = [];
    server = await startTemporalDevServer({
      dbFile: path.join(dir, 'temporal.sqlite'),
      restartOnCrash: { backoff: { initialMs: 100, maxMs: 400, stableAfterMs: 60_000 } },
      log: (line) => lines.push(line),
    });
    const connection = await Connection.connect({ address: server.address });
    await new Client({ connection }).workflow.start('neverRuns', { taskQueue: 'nobody-polls', workflowId: 'kept-across-restart', args: [] });
    await connection.close();

    const first = server.pid!()!;
    process.kill(first, 'SIGKILL');
    const second = await until(() => {
      const pid = server!.pid!();
      return pid !== null && pid !== first ? pid : null;
    });
    expect(lines).toContain('Temporal dev server exited unexpectedly (SIGKILL): restarting in 0.1 s');
    expect(await until(() => describeWorkflow(server!.address, 'kept-across-restart'))).toBe('RUNNING');

    await server.stop();
    expect(() => process.kill(second, 0)).toThrow();
    server = undefined;
  });
});
