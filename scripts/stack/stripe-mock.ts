/**
 * stripe-mock (github.com/stripe/stripe-mock): Stripe's own stateless mock of its API, answering
 * every endpoint from the OpenAPI fixtures. Tests point the Stripe SDK at it (host, port,
 * protocol) and never reach the network.
 *
 * The binary is provisioned like the Temporal CLI (scripts/stack/go-tools.ts): $STRIPE_MOCK_PATH
 * when set, else `go install github.com/stripe/stripe-mock@v0.203.0` once into
 * `${XDG_CACHE_HOME:-~/.cache}/coursehub/tools/stripe-mock-0.203.0/stripe-mock`.
 */
import { spawn } from 'node:child_process';
import { ensureGoTool, isExecutable, type GoTool } from './go-tools.ts';
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

/** stripe-mock over plain HTTP on a free loopback port (no HTTPS listener). */
export async function startStripeMock(log: Log = defaultLog): Promise<StripeMock> {
  const binary = await ensureStripeMock(log);
  const port = await findFreePort();
  const command = withParentDeathSignal(binary, ['-http-addr', `127.0.0.1:${port}`], 'SIGTERM');
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
