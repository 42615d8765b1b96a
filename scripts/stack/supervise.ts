/**
 * Keeps a process running: when it exits without being asked to, it is started again after a
 * backoff (doubling from `initialMs` to `maxMs`; back to `initialMs` once an incarnation has run
 * for `stableAfterMs`), with a log line saying what died and when it comes back. stop() stops the
 * current incarnation and any restart that was waiting. Used by `npm start` for the api, the
 * worker and the embedded PostgreSQL, and by `npm run faults`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { lineSplitter, terminate, withParentDeathSignal, type Log } from './lifecycle.ts';

/** One run of the supervised thing. */
export interface Incarnation {
  /** Resolves, with a reason (`SIGKILL`, `code 1`), when it ends. */
  exited: Promise<string>;
  /** Graceful stop of this run. */
  stop(): Promise<void>;
  /** The process id, when it is one process. */
  pid?: number;
}

export interface Backoff {
  initialMs: number;
  maxMs: number;
  /** An incarnation that ran this long resets the backoff. */
  stableAfterMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 1_000, maxMs: 30_000, stableAfterMs: 60_000 };

export interface Supervised {
  readonly name: string;
  /** Restarts so far. */
  readonly restarts: number;
  /** The running incarnation, null between a crash and its restart. */
  current(): Incarnation | null;
  stop(): Promise<void>;
}

/** The delay before restart `attempt` (1, 2, ...) in a row without a stable run. */
export function backoffDelay(backoff: Backoff, attempt: number): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, attempt - 1));
}

/**
 * Starts `name` through `start` (a failure of this first start is thrown) and restarts it after
 * every unexpected exit until stop(). A failing restart is logged and retried with the next delay.
 */
export async function supervise(
  name: string,
  start: () => Promise<Incarnation>,
  { log, backoff = DEFAULT_BACKOFF }: { log: Log; backoff?: Backoff },
): Promise<Supervised> {
  let current: Incarnation | null = await start();
  let stopping = false;
  let restarts = 0;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = (async () => {
    let failuresInRow = 0;
    let startedAt = Date.now();
    for (;;) {
      const reason: string = await current!.exited;
      if (stopping) return;
      current = null;
      failuresInRow = Date.now() - startedAt >= backoff.stableAfterMs ? 1 : failuresInRow + 1;
      let delay = backoffDelay(backoff, failuresInRow);
      log(`${name} exited unexpectedly (${reason}): restarting in ${(delay / 1000).toFixed(1)} s`);
      for (;;) {
        await pause(delay);
        if (stopping) return;
        try {
          const next = await start();
          restarts++;
          if (stopping) {
            await next.stop();
            return;
          }
          current = next;
          startedAt = Date.now();
          log(`${name} restarted${next.pid ? ` (pid ${next.pid})` : ''}, restart ${restarts}`);
          break;
        } catch (error) {
          failuresInRow++;
          delay = backoffDelay(backoff, failuresInRow);
          log(`${name} could not be restarted (${error instanceof Error ? error.message.split('\n')[0] : String(error)}): trying again in ${(delay / 1000).toFixed(1)} s`);
        }
      }
    }
  })();

  return {
    name,
    get restarts() {
      return restarts;
    },
    current: () => current,
    async stop() {
      stopping = true;
      wake?.();
      await current?.stop();
      await loop;
    },
  };
}

/**
 * `command args` in its own process group (so a terminal's Ctrl-C reaches only the launcher, which
 * stops things in order), SIGKILLed by the kernel should the launcher die, its output prefixed.
 * Stopped with SIGTERM, SIGKILL after `graceMs`.
 */
export function spawnIncarnation(
  name: string,
  command: string,
  args: string[],
  { env, cwd, graceMs = 10_000 }: { env?: NodeJS.ProcessEnv; cwd?: string; graceMs?: number } = {},
): Promise<Incarnation> {
  const wrapped = withParentDeathSignal(command, args, 'SIGKILL');
  const child: ChildProcess = spawn(wrapped.command, wrapped.args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = lineSplitter((line) => console.log(`[${name}] ${line}`));
  const err = lineSplitter((line) => console.error(`[${name}] ${line}`));
  child.stdout?.on('data', out.push);
  child.stderr?.on('data', err.push);
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`could not start: ${error.message}`));
    child.once('exit', (code, signal) => {
      out.flush();
      err.flush();
      resolve(signal ?? `code ${code}`);
    });
  });
  return Promise.resolve({ exited, pid: child.pid, stop: () => terminate(child, { signal: 'SIGTERM', graceMs }) });
}
