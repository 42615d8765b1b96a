/** What the A/B scripts (ab-orders.ts, ab-checkout.ts) share: an api process of a checkout. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../stack/postgres.ts';

/** The api of the checkout at `root` in a process of its own (ab-api-process.ts); resolves once it listens. */
export function startApi(root: string, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/bench/ab-api-process.ts'), root], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`api of ${root} exited (${code})`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const url = /listening (\S+)/.exec(chunk.toString())?.[1];
      if (url) resolve({ child, url });
    });
  });
}

