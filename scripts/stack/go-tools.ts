/**
 * Go-built tools (the Temporal CLI, stripe-mock) provisioned once per machine, outside the
 * checkout: `go install <module>@<version>` into
 * `${XDG_CACHE_HOME:-~/.cache}/coursehub/tools/<name>-<version>/<binary>`, under a build lock so
 * parallel test runs build it once, through a temporary GOBIN so there is never a half binary.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { lineSplitter, own, signalGroup, terminate, type Log } from './lifecycle.ts';
import { commandOnPath, freshBuildDir, isExecutable, toolDir, withBuildLock } from './tool-cache.ts';

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
  return path.join(toolDir(tool.name, tool.version), tool.binary);
}

/** The cached binary of `tool`, built with `go install` the first time (throws when Go is missing). */
export async function ensureGoTool(tool: GoTool, log: Log): Promise<string> {
  const cached = cachedToolPath(tool);
  if (isExecutable(cached)) return cached;
  if (!commandOnPath('go')) throw new Error(`${tool.label} is not built at ${cached} and Go is not installed to build it (go install ${tool.module})`);
  await withBuildLock(path.dirname(cached), `the ${tool.label}`, log, async () => {
    if (!isExecutable(cached)) await goInstall(tool, cached, log);
  });
  return cached;
}

/** `go install` into a temporary GOBIN next to the target, then rename: never a half binary. */
async function goInstall(tool: GoTool, target: string, log: Log): Promise<void> {
  // We hold the build lock of this tool: its other build folders are leftovers of a killed build.
  const gobin = await freshBuildDir(path.dirname(path.dirname(target)), tool.name);
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
