/**
 * One service of the stack (api/main.ts, worker/main.ts) in a child process of its own, started
 * as `npm start` starts it: `node --import tsx <entry>` from the repository root, in its own
 * process group, SIGKILLed by the kernel should the bench die. Only its warnings and errors reach
 * our stderr, prefixed with its name, a warning repeated for every workflow only a few times and
 * then as a count when it stops (child-output.ts).
 */
import { spawn } from 'node:child_process';
import { hasExited, lineSplitter, terminate, withParentDeathSignal } from '../stack/lifecycle.ts';
import { REPO_ROOT } from '../stack/postgres.ts';
import { plain, repeatsCounted, warningsOnly } from './child-output.ts';

export interface ServiceProcess {
  name: string;
  pid: number | undefined;
  /** Resolves when a line of its stdout matches (its "ready" line); rejects if it exits first or after timeoutMs. */
  untilLine(pattern: RegExp, timeoutMs: number): Promise<void>;
  /** True until it exits. */
  running(): boolean;
  /** SIGTERM (the services drain and close), SIGKILL to the group after GRACE_MS; once, however often called. */
  stop(): Promise<void>;
}

const GRACE_MS = 15_000;

export function startServiceProcess(name: string, entry: string, env: NodeJS.ProcessEnv): ServiceProcess {
  // BENCH_CPU_PROF=<dir>: each service writes a V8 CPU profile there when it stops (node --cpu-prof).
  const profile = env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${env.BENCH_CPU_PROF}`] : [];
  const wrapped = withParentDeathSignal(process.execPath, [...profile, '--import', 'tsx', entry], 'SIGKILL');
  const child = spawn(wrapped.command, wrapped.args, { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const watchers = new Set<(line: string) => void>();
  let exitReason: string | undefined;
  let stopping = false;
  let stopped: Promise<void> | undefined;

  const repeats = repeatsCounted();
  const pass = (stream: NodeJS.ReadableStream, own: boolean) => {
    const shown = warningsOnly();
    const lines = lineSplitter((raw) => {
      const line = plain(raw);
      if (own) for (const watch of watchers) watch(line);
      if (!shown(line)) return;
      const take = repeats.take(line);
      if (take !== 'hide') console.error(`[${name}] ${line}${take === 'last' ? ' (further lines like this one are counted, not shown)' : ''}`);
    });
    stream.on('data', lines.push);
    stream.on('end', lines.flush);
  };
  pass(child.stdout, true);
  pass(child.stderr, false);
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`could not start: ${error.message}`));
    child.once('exit', (code, signal) => resolve(signal ?? `code ${code}`));
  });
  void exited.then((reason) => {
    exitReason = reason;
    if (!stopping) console.error(`[${name}] exited unexpectedly (${reason})`);
  });

  return {
    name,
    pid: child.pid,
    untilLine(pattern, timeoutMs) {
      return new Promise<void>((resolve, reject) => {
        const done = (error?: Error) => {
          clearTimeout(timer);
          watchers.delete(watch);
          if (error) reject(error);
          else resolve();
        };
        const watch = (line: string) => pattern.test(line) && done();
        const timer = setTimeout(() => done(new Error(`${name}: no line matching ${pattern} within ${timeoutMs / 1000} s`)), timeoutMs);
        watchers.add(watch);
        void exited.then((reason) => done(new Error(`${name} exited (${reason}) before it was ready`)));
      });
    },
    running: () => exitReason === undefined && !hasExited(child),
    stop() {
      stopped ??= (async () => {
        stopping = true;
        await terminate(child, { signal: 'SIGTERM', graceMs: GRACE_MS });
        for (const { kind, count } of repeats.hidden()) console.error(`[${name}] ${count} more lines like "${kind}" not shown`);
      })();
      return stopped;
    },
  };
}
