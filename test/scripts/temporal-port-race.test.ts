/**
 * The dev server picks its internal ports by binding port 0 and closing it, then listens on them
 * later; under a parallel suite another process can take one in between and the server dies at
 * startup (a CI run failed so). startTemporalDevServer starts it again with fresh ports; any other
 * startup failure is thrown at once. The CLI is the real one behind a wrapper whose first run
 * fails as the real server does when it loses that race.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureTemporalCli, startTemporalDevServer, type TemporalServer } from '../../scripts/stack/temporal.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-port-race-'));
let realCli = '';
let server: TemporalServer | undefined;
const savedCliPath = process.env.TEMPORAL_CLI_PATH;

beforeAll(async () => {
  realCli = await ensureTemporalCli();
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  if (savedCliPath === undefined) delete process.env.TEMPORAL_CLI_PATH;
  else process.env.TEMPORAL_CLI_PATH = savedCliPath;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A CLI whose first `failures` runs print `errorLine` and exit 2 (as a startup panic does); later runs are the real CLI. */
function flakyCli(name: string, failures: number, errorLine: string): { runs: () => number } {
  const counter = path.join(dir, `${name}.runs`);
  const script = path.join(dir, `${name}.sh`);
  const errorFile = path.join(dir, `${name}.err`);
  writeFileSync(counter, '0');
  writeFileSync(errorFile, `${errorLine}\n`);
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      `n=$(cat '${counter}'); echo $((n + 1)) > '${counter}'`,
      `if [ "$n" -lt ${failures} ]; then cat '${errorFile}' >&2; echo 'panic: runtime error: invalid memory address or nil pointer dereference' >&2; exit 2; fi`,
      `exec '${realCli}' "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(script, 0o755);
  process.env.TEMPORAL_CLI_PATH = script;
  return { runs: () => Number(readFileSync(counter, 'utf8')) };
}

const LOST_PORT = 'time=2026-12-07T03:16:20.000 level=ERROR msg="Failed to start gRPC listener" service=history error="listen tcp 127.0.0.1:41234: bind: address already in use"';

describe('startTemporalDevServer at startup', () => {
  it('starts the server again when it lost a port to another process, and serves', async () => {
    const cli = flakyCli('lost-port', 1, LOST_PORT);
    const lines: string[] = [];
    server = await startTemporalDevServer({ log: (line) => lines.push(line) });
    expect(cli.runs()).toBe(2);
    expect(lines).toContain('the dev server lost a port to another process at startup (try 1 of 3): starting it again');
    const connection = await Connection.connect({ address: server.address });
    try {
      const handle = await new Client({ connection }).workflow.start('neverRuns', { taskQueue: 'nobody-polls', workflowId: 'after-a-lost-port', args: [] });
      expect((await handle.describe()).status.name).toBe('RUNNING');
    } finally {
      await connection.close();
    }
  });

  it('throws any other startup failure at once, with its error line', async () => {
    const cli = flakyCli('bad-config', 5, 'time=2026-12-07T03:16:20.000 level=ERROR msg="bad sqlite pragma"');
    await expect(startTemporalDevServer({ log: () => undefined })).rejects.toThrow(/exited during startup \(2\):\n.*bad sqlite pragma/);
    expect(cli.runs()).toBe(1);
  });

  it("does not retry a port we passed that the CLI found taken (another server may hold it)", async () => {
    const cli = flakyCli('our-port-taken', 5, 'time=2026-12-07T03:16:20.000 level=ERROR msg="can\'t set frontend port 7233: listen tcp 127.0.0.1:7233: bind: address already in use"');
    await expect(startTemporalDevServer({ log: () => undefined })).rejects.toThrow(/can't set frontend port/);
    expect(cli.runs()).toBe(1);
  });

  it('gives up after three lost races and says why', async () => {
    const cli = flakyCli('always-lost', 5, LOST_PORT);
    await expect(startTemporalDevServer({ log: () => undefined })).rejects.toThrow(/address already in use/);
    expect(cli.runs()).toBe(3);
  });
});
