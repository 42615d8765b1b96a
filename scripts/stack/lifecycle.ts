/**
 * Process plumbing shared by the stack modules: servers we start are "owned" by this process and
 * must not outlive it.
 *
 * - Every owned server is spawned in its own process group (so a terminal's Ctrl-C does not hit it
 *   behind our back and we decide the shutdown order) and, on Linux, through `setpriv --pdeathsig`
 *   so the kernel signals it even when this process is SIGKILLed.
 * - On `exit` every owned server still running is signalled synchronously.
 * - On SIGINT/SIGTERM/SIGHUP, when nobody else listens for the signal, owned servers are stopped
 *   (last started first) and the process exits with 128+signal. A program that installs its own
 *   handler (scripts/start.ts) orders the shutdown itself; the `exit` hook stays as the safety net.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { constants } from 'node:os';

export type Log = (line: string) => void;

export interface Owned {
  name: string;
  /** Graceful stop; awaited on a signal when nobody else handles it. */
  stop(): Promise<void>;
  /** Synchronous last resort, called from the `exit` event. */
  killNow(): void;
}

const owned = new Set<Owned>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let hooksInstalled = false;
let stoppingOnSignal = false;

/** Registers a running server; returns the function that unregisters it (call it once stopped). */
export function own(entry: Owned): () => void {
  installHooks();
  owned.add(entry);
  return () => {
    owned.delete(entry);
  };
}

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', () => {
    for (const entry of owned) {
      try {
        entry.killNow();
      } catch {
        // already gone
      }
    }
  });
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function onSignal(signal: NodeJS.Signals): void {
  // Someone else (e.g. scripts/start.ts) handles this signal and stops us in order.
  if (process.listenerCount(signal) > 1) return;
  const code = 128 + (constants.signals[signal] ?? 1);
  if (stoppingOnSignal) process.exit(code); // second signal: the exit hook kills what is left
  stoppingOnSignal = true;
  void (async () => {
    for (const entry of [...owned].reverse()) {
      await entry.stop().catch(() => undefined);
    }
    process.exit(code);
  })();
}

/** True while a process with that pid exists (EPERM means it exists but is not ours). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line of a running process, or null when unknown. */
export function commandLineOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    const ps = spawnSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' });
    return ps.status === 0 ? ps.stdout.trim() : null;
  }
}

/** Sends a signal to a whole process group (falls back to the single process). */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Resolves true when the child exited within `ms`, false on timeout. */
export function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (hasExited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      resolve(false);
    }, ms);
    const onExit = () => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

/**
 * Stops a child spawned as a process-group leader: `signal` to the leader, then SIGKILL to the
 * whole group after `graceMs`. The group is killed in any case so no grandchild survives.
 */
export async function terminate(
  child: ChildProcess,
  { signal = 'SIGTERM', graceMs = 10_000 }: { signal?: NodeJS.Signals; graceMs?: number } = {},
): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  if (!hasExited(child)) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
    if (!(await waitForExit(child, graceMs))) {
      signalGroup(pid, 'SIGKILL');
      await waitForExit(child, 5_000);
    }
  }
  signalGroup(pid, 'SIGKILL'); // leftovers of the group, if any
}

let setprivAvailable: boolean | undefined;

/**
 * Prefixes a command with `setpriv --pdeathsig <signal>` where available (Linux, util-linux), so
 * the child is signalled by the kernel when this process dies, even by SIGKILL.
 */
export function withParentDeathSignal(
  command: string,
  args: string[],
  signal: NodeJS.Signals,
): { command: string; args: string[] } {
  if (process.platform !== 'linux') return { command, args };
  setprivAvailable ??= spawnSync('setpriv', ['--help'], { stdio: 'ignore' }).status === 0;
  if (!setprivAvailable) return { command, args };
  return { command: 'setpriv', args: ['--pdeathsig', signal.replace(/^SIG/, ''), '--', command, ...args] };
}

/** True when nothing listens on host:port (we can bind it ourselves). */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * `preferred` when it is free, else the next free port above it; with no preference a free port
 * chosen by the kernel.
 */
export async function findFreePort(preferred?: number, host = '127.0.0.1'): Promise<number> {
  if (preferred === undefined || preferred === 0) return ephemeralPort(host);
  for (let port = preferred; port < preferred + 100 && port <= 65535; port++) {
    if (await isPortFree(port, host)) return port;
  }
  throw new Error(`no free port in ${preferred}..${preferred + 99} on ${host}`);
}

function ephemeralPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ port: 0, host, exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Splits a stream of chunks into lines. */
export function lineSplitter(onLine: (line: string) => void): { push(chunk: Buffer | string): void; flush(): void } {
  let rest = '';
  return {
    push(chunk) {
      rest += chunk.toString();
      const lines = rest.split(/\r?\n/);
      rest = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    },
    flush() {
      if (rest) onLine(rest);
      rest = '';
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
