/**
 * Tools the local stack builds or installs once per machine, outside the checkout, in
 * ${XDG_CACHE_HOME:-~/.cache}/coursehub/tools/<name>-<version>/ (the Temporal CLI, the mail catcher).
 */
import { accessSync, constants as fsConstants, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isAlive, sleep, type Log } from './lifecycle.ts';

const LOCK_WAIT_MAX_MS = 30 * 60_000;

/** The folder of one tool's version in the cache. */
export function toolDir(name: string, version: string): string {
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cacheHome, 'coursehub', 'tools', `${name}-${version}`);
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

/**
 * Runs `work` holding `<dir>.lock` (created exclusively, holds our pid). Another live builder makes
 * us wait for it; a lock whose pid is gone (killed build) is taken over.
 */
export async function withBuildLock(dir: string, what: string, log: Log, work: () => Promise<void>): Promise<void> {
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
      log(`waiting for another process (pid ${holder}) that is building ${what}...`);
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

/**
 * A fresh build folder for tool `name` beside the tools (`.build-<name>-*`); that tool's leftovers
 * of killed builds are removed first (call it holding the tool's build lock).
 */
export async function freshBuildDir(toolsDir: string, name: string): Promise<string> {
  const prefix = `.build-${name}-`;
  await fs.mkdir(toolsDir, { recursive: true });
  for (const entry of await fs.readdir(toolsDir)) {
    if (entry.startsWith(prefix)) await fs.rm(path.join(toolsDir, entry), { recursive: true, force: true });
  }
  return fs.mkdtemp(path.join(toolsDir, prefix));
}
