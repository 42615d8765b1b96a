/**
 * The worker as `npm run worker` runs it, in an OS process of its own (its own process group), so
 * a test can kill it as a crash would. It dies with the test process too (`--pdeathsig`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { hasExited, lineSplitter, signalGroup, waitForExit, withParentDeathSignal } from '../../scripts/stack/lifecycle.ts';
import { secretsKeyFrom } from '../../adapters/secrets/secret-box.ts';
import { PLATFORM_URL_TEMPLATE } from './stack.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const READY_LINE = 'worker polling task queue';

export interface WorkerProcess {
  pid: number;
  /** Resolves once the worker polls its task queue (after bundling the workflows). */
  ready: Promise<void>;
  /** The last lines the process wrote, for failure messages. */
  output(): string;
  /** Signals the whole process group and waits until the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export function spawnWorkerProcess({ taskQueue, readyTimeoutMs = 60_000, env: extraEnv = {} }: { taskQueue: string; readyTimeoutMs?: number; env?: Record<string, string> }): WorkerProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: inject('databaseUrl'),
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_TASK_QUEUE: taskQueue,
    PLATFORM_URL_TEMPLATE,
    // The key the test process's app seals with (its per-process key), so this worker opens what
    // that app sealed (webhook and provider secrets).
    SECRETS_KEY: secretsKeyFrom(undefined, () => undefined).toString('base64'),
    ...extraEnv,
  };
  // The test runner's own loader options are not the worker's business.
  delete env.NODE_OPTIONS;
  const command = withParentDeathSignal(process.execPath, ['--import', 'tsx', 'worker/main.ts'], 'SIGKILL');
  const child: ChildProcess = spawn(command.command, command.args, { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error('the worker process did not start');
  const pid = child.pid;

  const lines: string[] = [];
  let onReadyLine: (() => void) | undefined;
  const collect = lineSplitter((line) => {
    lines.push(line);
    if (lines.length > 80) lines.shift();
    if (line.includes(READY_LINE)) onReadyLine?.();
  });
  child.stdout?.on('data', collect.push);
  child.stderr?.on('data', collect.push);
  const output = () => lines.join('\n');

  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker not ready within ${readyTimeoutMs} ms:\n${output()}`)), readyTimeoutMs);
    onReadyLine = () => {
      clearTimeout(timer);
      resolve();
    };
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`worker exited (${code ?? signal}) before it was ready:\n${output()}`));
    });
  });
  ready.catch(() => undefined); // observed by whoever awaits it

  return {
    pid,
    ready,
    output,
    async kill(signal = 'SIGKILL') {
      if (!hasExited(child)) signalGroup(pid, signal);
      if (!(await waitForExit(child, 10_000))) {
        signalGroup(pid, 'SIGKILL');
        await waitForExit(child, 5_000);
      }
    },
  };
}
