/**
 * stripe-mock (github.com/stripe/stripe-mock): Stripe's own stateless mock of its API, answering
 * every endpoint from the OpenAPI fixtures. Tests point the Stripe SDK at it (host, port,
 * protocol) and never reach the network.
 *
 * The binary is provisioned like the Temporal CLI (scripts/stack/go-tools.ts): $STRIPE_MOCK_PATH
 * when set, else `go install github.com/stripe/stripe-mock@v0.203.0` once into
 * `${XDG_CACHE_HOME:-~/.cache}/coursehub/tools/stripe-mock-0.203.0/stripe-mock`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureGoTool, type GoTool } from './go-tools.ts';
import { isExecutable } from './tool-cache.ts';
import { findFreePort, lineSplitter, own, signalGroup, sleep, terminate, withParentDeathSignal, type Log } from './lifecycle.ts';

export const STRIPE_MOCK_VERSION = '0.203.0';
const STRIPE_MOCK: GoTool = {
  name: 'stripe-mock',
  label: 'stripe-mock',
  version: STRIPE_MOCK_VERSION,
  module: `github.com/stripe/stripe-mock@v${STRIPE_MOCK_VERSION}`,
  binary: 'stripe-mock',
};
const READY_TIMEOUT_MS = 60_000;

const defaultLog: Log = (line) => console.error(`[stripe-mock] ${line}`);

export async function ensureStripeMock(log: Log = defaultLog): Promise<string> {
  const fromEnv = process.env.STRIPE_MOCK_PATH;
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new Error(`STRIPE_MOCK_PATH=${fromEnv} is not an executable file`);
    return fromEnv;
  }
  return ensureGoTool(STRIPE_MOCK, log);
}

export interface StripeMock {
  /** `http://127.0.0.1:<port>`: what STRIPE_API_URL takes. */
  url: string;
  stop(): Promise<void>;
}

/**
 * The bundled fixtures with a PaymentIntent that succeeded: stripe-mock answers every PaymentIntent
 * from one fixture whose status is `requires_payment_method`, which a confirmed off-session charge
 * never has without an error; real Stripe answers such a charge `succeeded` (or a 402 card error).
 * Read from the module `go install` fetched; null (bundled fixtures) when it is not there.
 */
function succeededFixtures(): string | null {
  let modCache: string;
  try {
    modCache = execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
  const file = path.join(modCache, 'github.com', 'stripe', `stripe-mock@v${STRIPE_MOCK_VERSION}`, 'embedded', 'openapi', 'fixtures3.json');
  if (!existsSync(file)) return null;
  const fixtures = JSON.parse(readFileSync(file, 'utf8')) as { resources: Record<string, Record<string, unknown>> };
  fixtures.resources.payment_intent!.status = 'succeeded';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'stripe-mock-'));
  writeFileSync(path.join(dir, 'fixtures.json'), JSON.stringify(fixtures));
  return path.join(dir, 'fixtures.json');
}

/** stripe-mock over plain HTTP on a free loopback port (its HTTPS listener on another free port). */
export async function startStripeMock(log: Log = defaultLog): Promise<StripeMock> {
  const binary = await ensureStripeMock(log);
  const port = await findFreePort();
  const fixtures = succeededFixtures();
  if (!fixtures) log('the stripe-mock module source is not in the Go module cache: its bundled fixtures answer every PaymentIntent requires_payment_method');
  const args = ['-http-addr', `127.0.0.1:${port}`, '-https-addr', '127.0.0.1:', ...(fixtures ? ['-fixtures', fixtures] : [])];
  const command = withParentDeathSignal(binary, args, 'SIGTERM');
  const child = spawn(command.command, command.args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const collect = lineSplitter((line) => {
    output.push(line);
    if (output.length > 40) output.shift();
  });
  child.stdout.on('data', collect.push);
  child.stderr.on('data', collect.push);
  const stop = async () => {
    await terminate(child, { signal: 'SIGTERM', graceMs: 5_000 });
    release();
    if (fixtures) rmSync(path.dirname(fixtures), { recursive: true, force: true });
  };
  const release = own({ name: 'stripe-mock', stop, killNow: () => child.pid !== undefined && signalGroup(child.pid, 'SIGKILL') });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    // Any HTTP answer (401 without a key) means it is listening.
    const up = await fetch(`${url}/v1/customers`).then(() => true, () => false);
    if (up) return { url, stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`stripe-mock did not start on ${url}:\n${output.join('\n')}`);
    }
    await sleep(200);
  }
}
