/**
 * Go-built tools (the Temporal CLI, stripe-mock) provisioned once per machine, outside the
 * checkout: `go install <module>@<version>` into
 * `${XDG_CACHE_HOME:-~/.cache}/coursehub/tools/<name>-<version>/<binary>`, under a build lock so
 * parallel test runs build it once, through a temporary GOBIN so there is never a half binary.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants as fsConstants, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isAlive, lineSplitter, own, signalGroup, sleep, terminate, type Log } from './lifecycle.ts';

const LOCK_WAIT_MAX_MS = 30 * 60_000;

export interface GoTool {
  /** Folder name prefix and what the log lines call it ("Temporal CLI"). */
  name: string;
  label: string;
  version: string;
  /** `go install` argument, e.g. `github.com/stripe/stripe-mock@v0.203.0`. */
  module: string;
  /** The binary `go install` writes. */
  binary: string;
}

export function cachedToolPath(tool: GoTool): string {
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cacheHome, 'coursehub', 'tools', `${tool.name}-${tool.version}`, tool.binary);
}

export function isExecutable(file: string): boolean {
  try {
    accessSync(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function commandOnPath(command: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && isExecutable(path.join(dir, command)));
}

/** The cached binary of `tool`, built with `go install` the first time (throws when Go is missing). */
export async function ensureGoTool(tool: GoTool, log: Log): Promise<string> {
  const cached = cachedToolPath(tool);
  if (isExecutable(cached)) return cached;
  if (!commandOnPath('go')) throw new Error(`${tool.label} is not built at ${cached} and Go is not installed to build it (go install ${tool.module})`);
  await withBuildLock(path.dirname(cached), tool.label, log, async () => {
    if (!isExecutable(cached)) await goInstall(tool, cached, log);
  });
  return cached;
}

/**
 * Runs `work` holding `<dir>.lock` (created exclusively, holds our pid). Another live builder makes
 * us wait for it; a lock whose pid is gone (killed build) is taken over.
 */
export async function withBuildLock(dir: string, label: string, log: Log, work: () => Promise<void>): Promise<void> {
  const lockFile = `${dir}.lock`;
  mkdirSync(path.dirname(lockFile), { recursive: true });
  let lastNotice = 0;
  const waitingSince = Date.now();
  for (;;) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(lockFile, 'utf8').trim() || 0);
    if (!holder || !isAlive(holder) || Date.now() - waitingSince > LOCK_WAIT_MAX_MS) {
      rmSync(lockFile, { force: true }); // stale: its builder died (or its pid was reused)
      continue;
    }
    if (Date.now() - lastNotice > 30_000) {
      log(`waiting for another process (pid ${holder}) that is building the ${label}...`);
      lastNotice = Date.now();
    }
    await sleep(1_000);
  }
  try {
    await work();
  } finally {
    rmSync(lockFile, { force: true });
  }
}

/** `go install` into a temporary GOBIN next to the target, then rename: never a half binary. */
async function goInstall(tool: GoTool, target: string, log: Log): Promise<void> {
  const toolsDir = path.dirname(path.dirname(target));
  await fs.mkdir(toolsDir, { recursive: true });
  // We hold the build lock of this tool: its other build folders are leftovers of a killed build.
  const prefix = `.build-${tool.name}-`;
  for (const entry of await fs.readdir(toolsDir)) {
    if (entry.startsWith(prefix)) await fs.rm(path.join(toolsDir, entry), { recursive: true, force: true });
  }
  const gobin = await fs.mkdtemp(path.join(toolsDir, prefix));
  log(`building the ${tool.label} ${tool.version} with Go (first time only, takes a few minutes)...`);
  const started = Date.now();
  try {
    const child = spawn('go', ['install', '-v', tool.module], {
      cwd: os.tmpdir(), // outside any Go module or workspace
      env: { ...process.env, GOBIN: gobin, GOWORK: 'off', GOFLAGS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const release = own({
      name: 'go install',
      stop: () => terminate(child, { signal: 'SIGTERM', graceMs: 5_000 }),
      killNow: () => child.pid !== undefined && signalGroup(child.pid, 'SIGKILL'),
    });
    const heartbeat = setInterval(() => log(`still building the ${tool.label} (${Math.round((Date.now() - started) / 1000)} s)...`), 30_000);
    const tail: string[] = [];
    let packages = 0;
    const onLine = (line: string) => {
      if (!line.trim()) return;
      tail.push(line);
      if (tail.length > 40) tail.shift();
      // `-v` names each package it compiles (hundreds): report those in steps, the rest as is.
      if (/^[\w.-]+(\/[\w.~-]+)*$/.test(line)) {
        if (++packages % 100 === 0) log(`compiled ${packages} packages (${line})`);
      } else {
        log(line);
      }
    };
    const out = lineSplitter(onLine);
    const err = lineSplitter(onLine);
    child.stdout.on('data', out.push);
    child.stderr.on('data', err.push);
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (exitCode) => resolve(exitCode));
    }).finally(() => {
      clearInterval(heartbeat);
      release();
      out.flush();
      err.flush();
    });
    if (code !== 0) throw new Error(`go install ${tool.module} failed (exit ${code}):\n${tail.join('\n')}`);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(path.join(gobin, tool.binary), target);
  } finally {
    await fs.rm(gobin, { recursive: true, force: true });
  }
  log(`${tool.label} built in ${Math.round((Date.now() - started) / 1000)} s: ${target}`);
}
