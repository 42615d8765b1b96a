/**
 * A local mail catcher for `npm start` and the tests: MailDev (npm `maildev`), an SMTP server that
 * keeps every message it receives and shows them in a web UI, with a REST API (`/api/email`).
 * docs/decisions/ (issue 27) says why MailDev rather than Mailpit.
 *
 * Installed once per machine, outside the checkout and the project's node_modules:
 * `npm install maildev@<version>` into ${XDG_CACHE_HOME:-~/.cache}/coursehub/tools/maildev-<version>
 * (about a minute the first time), under a build lock like the Temporal CLI; reused after.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findFreePort, lineSplitter, own, signalGroup, sleep, terminate, withParentDeathSignal, type Log } from './lifecycle.ts';
import { DATA_DIR } from './postgres.ts';
import { freshBuildDir, toolDir, withBuildLock } from './tool-cache.ts';

export const MAILDEV_VERSION = '3.0.0';
const READY_TIMEOUT_MS = 60_000;
const HOST = '127.0.0.1';

const defaultLog: Log = (line) => console.error(`[mail] ${line}`);

export interface MailCatcher {
  /** Where the api and the worker send (DEFAULT_SMTP_URL, nodemailer URL form). */
  smtpUrl: string;
  /** The web UI, and the REST API under `/api`. */
  uiUrl: string;
  stop(): Promise<void>;
}

function cliPath(): string {
  return path.join(toolDir('maildev', MAILDEV_VERSION), 'node_modules', 'maildev', 'dist', 'bin', 'maildev.js');
}

/** The MailDev command line script, installed with npm the first time. */
export async function ensureMailDev(log: Log = defaultLog): Promise<string> {
  const cli = cliPath();
  if (existsSync(cli)) return cli;
  const dir = toolDir('maildev', MAILDEV_VERSION);
  await withBuildLock(dir, 'the mail catcher', log, async () => {
    if (!existsSync(cli)) await npmInstall(dir, log);
  });
  return cli;
}

/** `npm install` into a build folder next to the target, then rename: never a half install. */
async function npmInstall(target: string, log: Log): Promise<void> {
  const build = await freshBuildDir(path.dirname(target), 'maildev');
  log(`installing the mail catcher (MailDev ${MAILDEV_VERSION}) with npm (first time only, about a minute)...`);
  const started = Date.now();
  try {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const args = ['install', '--prefix', build, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', '--engine-strict=false', `maildev@${MAILDEV_VERSION}`];
    const child = spawn(npm, args, { cwd: os.tmpdir(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const release = own({
      name: 'npm install maildev',
      stop: () => terminate(child, { signal: 'SIGTERM', graceMs: 5_000 }),
      killNow: () => child.pid !== undefined && signalGroup(child.pid, 'SIGKILL'),
    });
    const tail: string[] = [];
    const collect = lineSplitter((line) => {
      if (!line.trim()) return;
      tail.push(line);
      if (tail.length > 40) tail.shift();
    });
    child.stdout.on('data', collect.push);
    child.stderr.on('data', collect.push);
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    }).finally(() => {
      release();
      collect.flush();
    });
    if (code !== 0) throw new Error(`npm install maildev@${MAILDEV_VERSION} failed (exit ${code}):\n${tail.join('\n')}`);
    await fs.rm(target, { recursive: true, force: true });
    await fs.rename(build, target);
  } finally {
    await fs.rm(build, { recursive: true, force: true });
  }
  log(`mail catcher installed in ${Math.round((Date.now() - started) / 1000)} s: ${target}`);
}

export interface StartMailCatcherOptions {
  /** Preferred SMTP port (the next free one when taken); a free one when absent. */
  smtpPort?: number;
  /** Preferred web UI port (the next free one when taken); a free one when absent. */
  webPort?: number;
  /** Messages are kept here (across restarts); a fresh temporary folder when absent. */
  mailDir?: string;
  log?: Log;
}

export async function startMailCatcher(opts: StartMailCatcherOptions = {}): Promise<MailCatcher> {
  const log = opts.log ?? defaultLog;
  const cli = await ensureMailDev(log);
  const smtpPort = await findFreePort(opts.smtpPort);
  const webPort = await findFreePort(opts.webPort);
  if (webPort === smtpPort) throw new Error(`the mail catcher got one port (${smtpPort}) for SMTP and the web UI`);
  const mailDir = opts.mailDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'coursehub-mail-')));
  await fs.mkdir(mailDir, { recursive: true });
  const args = ['--smtp', String(smtpPort), '--ip', HOST, '--web', String(webPort), '--web-ip', HOST, '--mail-directory', mailDir, '--hide-extensions', 'STARTTLS'];
  const command = withParentDeathSignal(process.execPath, [cli, ...args], 'SIGTERM');
  const child = spawn(command.command, command.args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
  const output: string[] = [];
  const collect = lineSplitter((line) => {
    if (!line.trim()) return;
    output.push(line);
    if (output.length > 40) output.shift();
  });
  child.stdout.on('data', collect.push);
  child.stderr.on('data', collect.push);
  let spawnError: Error | null = null;
  child.once('error', (error) => (spawnError = error));

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await terminate(child, { signal: 'SIGTERM', graceMs: 5_000 });
      release();
      if (!opts.mailDir) await fs.rm(mailDir, { recursive: true, force: true });
    })());
  const release = own({ name: 'mail catcher', stop, killNow: () => child.pid !== undefined && signalGroup(child.pid, 'SIGTERM') });

  const uiUrl = `http://${HOST}:${webPort}`;
  try {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (spawnError) throw spawnError;
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the mail catcher exited during startup:\n${output.join('\n')}`);
      const healthy = await fetch(`${uiUrl}/api/healthz`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
      if (healthy) break;
      if (Date.now() > deadline) throw new Error(`the mail catcher did not answer on ${uiUrl} within ${READY_TIMEOUT_MS / 1000} s:\n${output.join('\n')}`);
      await sleep(250);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  // No TLS on loopback: the catcher offers no STARTTLS and the URL says not to ask for it.
  return { smtpUrl: `smtp://${HOST}:${smtpPort}?ignoreTLS=true`, uiUrl, stop };
}

/**
 * For `npm start`: none when DEFAULT_SMTP_URL names a relay; otherwise MailDev with SMTP on 1025
 * and the web UI on 1080 (the next free ports when taken), messages kept in .data/mail.
 */
export async function resolveMailCatcher(opts: { log?: Log } = {}): Promise<MailCatcher | null> {
  if (process.env.DEFAULT_SMTP_URL) return null;
  return startMailCatcher({ smtpPort: 1025, webPort: 1080, mailDir: path.join(DATA_DIR, 'mail'), ...opts });
}
