/**
 * Where `GET /api/courses` spends its time, for issue 17's "measure first":
 *   npx tsx scripts/bench/profile-courses.ts            statements per request, req/s for 10 s
 *   node --cpu-prof --cpu-prof-dir=.data/prof --import tsx scripts/bench/profile-courses.ts
 *                                                       the same under the V8 profiler
 *   npx tsx scripts/bench/profile-courses.ts .data/prof/<file>.cpuprofile
 *                                                       self time of a profile by package/file
 * Needs DATABASE_URL (a server where a fresh database can be made); Temporal is not used.
 */
import { readFileSync } from 'node:fs';
import { createFixtures } from './fixtures.ts';
import { startHttpLoadThread } from './http-load.ts';
import { countStatements, withProfiledApi } from './profile-app.ts';

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
  const http = startHttpLoadThread();
  try {
    await withProfiledApi('coursehub_profile', async ({ apiUrl, adminToken }) => {
      const fixtures = await createFixtures(apiUrl, adminToken);
      const statements = countStatements();
      const headers = { 'x-api-key': fixtures.apiKey };
      const sample = 50;
      for (let i = 0; i < sample; i++) await fetch(`${apiUrl}/api/courses`, { headers });
      console.log(`statements per GET /api/courses: ${(statements.count / sample).toFixed(2)}`);
      statements.restore();

      const job = { method: 'GET' as const, url: `${apiUrl}/api/courses`, headers, concurrency: CONCURRENCY, expectStatus: 200 };
      await http.run({ ...job, durationMs: 2_000 });
      const { result } = await http.run({ ...job, durationMs: LOAD_MS });
      console.log(`${Math.round(result.ok / (result.elapsedMs / 1000))} req/s at ${CONCURRENCY} concurrent, ${result.errors} errors`);
    });
  } finally {
    await http.close();
  }
}

const profileFile = process.argv[2];
if (profileFile) summarise(profileFile);
else await main();
