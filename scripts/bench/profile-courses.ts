/**
 * Where `GET /api/courses` spends its time, for issue 17's "measure first":
 *   npx tsx scripts/bench/profile-courses.ts            statements per request, req/s for 10 s
 *   node --cpu-prof --cpu-prof-dir=.data/prof --import tsx scripts/bench/profile-courses.ts
 *                                                       the same under the V8 profiler
 *   npx tsx scripts/bench/profile-courses.ts .data/prof/<file>.cpuprofile
 *                                                       self time of a profile by package/file
 * Needs DATABASE_URL (a server where a fresh database can be made); Temporal is not used.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import pg from 'pg';
import { buildApp } from '../../api/app.ts';
import { migrate, openOrm } from '../../db/orm.ts';
import { createFreshDatabase } from '../stack/postgres.ts';
import { createFixtures } from './fixtures.ts';
import { startHttpLoadThread } from './http-load.ts';
import { POOL_MAX } from './stack.ts';

const LOAD_MS = 10_000;
const CONCURRENCY = 32;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  hitCount?: number;
}

/** Self samples of the last LOAD_MS of a profile (the measured load), grouped by package or project file, idle left out. */
function summarise(file: string): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; endTime: number; startTime: number };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node || t < profile.endTime - LOAD_MS * 1000 || node.callFrame.functionName === '(idle)') return;
    total++;
    const url = node.callFrame.url;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
    const group = pkg ?? (url ? url.replace(/^.*\/main\//, '') : `(${node.callFrame.functionName || 'native'})`);
    groups.set(group, (groups.get(group) ?? 0) + 1);
    const fn = `${node.callFrame.functionName || '(anonymous)'} ${group}`;
    functions.set(fn, (functions.get(fn) ?? 0) + 1);
  });
  const top = (counts: Map<string, number>, n: number) =>
    [...counts].sort((a, b) => b[1] - a[1]).slice(0, n).map(([name, hits]) => `${((100 * hits) / total).toFixed(1).padStart(5)} %  ${name}`);
  console.log([`busy samples in the last ${LOAD_MS / 1000} s: ${total}`, '', 'by package / file:', ...top(groups, 20), '', 'by function:', ...top(functions, 25)].join('\n'));
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is needed');
  const database = await createFreshDatabase(serverUrl, 'coursehub_profile');
  const orm = await openOrm({ databaseUrl: database.url, poolMax: POOL_MAX });
  const http = startHttpLoadThread();
  try {
    await migrate(orm);
    const temporal = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) });
    const adminToken = randomBytes(24).toString('base64url');
    const app = await buildApp({ orm, temporal, taskQueue: 'profile', adminToken, rateLimits: { enabled: false } });
    const apiUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const fixtures = await createFixtures(apiUrl, adminToken);

    // Statements per request: every query of the process goes through pg.Client#query.
    let statements = 0;
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      statements++;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    const headers = { 'x-api-key': fixtures.apiKey };
    const sample = 50;
    for (let i = 0; i < sample; i++) await fetch(`${apiUrl}/api/courses`, { headers });
    console.log(`statements per GET /api/courses: ${(statements / sample).toFixed(2)}`);
    pg.Client.prototype.query = query;

    const job = { method: 'GET' as const, url: `${apiUrl}/api/courses`, headers, concurrency: CONCURRENCY, expectStatus: 200 };
    await http.run({ ...job, durationMs: 2_000 });
    const { result } = await http.run({ ...job, durationMs: LOAD_MS });
    console.log(`${Math.round(result.ok / (result.elapsedMs / 1000))} req/s at ${CONCURRENCY} concurrent, ${result.errors} errors`);
    await app.close();
    await temporal.connection.close().catch(() => undefined);
  } finally {
    await http.close();
    await orm.close();
    await database.drop();
  }
}

const profileFile = process.argv[2];
if (profileFile) summarise(profileFile);
else await main();
