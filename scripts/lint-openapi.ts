/**
 * Part of `npm run lint`: the OpenAPI documents (the whole and each audience's, built without a
 * database: scripts/openapi.ts) checked by `redocly lint` with the recommended ruleset
 * (redocly.yaml). Fails on any error; warnings are printed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeDocuments } from './openapi.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = await mkdtemp(join(tmpdir(), 'coursehub-openapi-'));
try {
  const files = await writeDocuments(dir);
  const redocly = join(root, 'node_modules', '.bin', 'redocly');
  const result = spawnSync(redocly, ['lint', '--config', join(root, 'redocly.yaml'), '--format', 'summary', ...files], { cwd: root, stdio: 'inherit' });
  process.exitCode = result.status ?? 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
