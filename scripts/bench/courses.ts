/**
 * Part (a): `GET /api/courses` with a valid key against two baselines at the same concurrency:
 * - raw SQL: the two statements the request needs (the key lookup of api/access/api-key-auth.ts,
 *   then the list of db/repositories/access/catalogue.ts), through a `pg` pool of the API's size.
 *   (The API itself now answers the lookup from its key cache and sends the list as a prepared
 *   statement: issue 17; the baseline stays the issue's.)
 *   MikroORM inlines parameters into the SQL text (Platform.formatQuery), so the baseline sends
 *   the same text the same way (simple query protocol, no bound parameters);
 * - bare Fastify: `GET /ping` answering `{ok: true}`, the HTTP layer alone.
 * A warm-up per target, then rounds in which every target runs once (order rotating); the figures
 * are the medians across rounds.
 */
import Fastify from 'fastify';
import pg from 'pg';
import { hashToken } from '../../api/shared/tokens.ts';
import type { HttpLoad } from './http-load.ts';
import { closedLoop, type LoadResult } from './load.ts';
import { POOL_MAX } from './stack.ts';
import { median, percentile } from './stats.ts';

/** Exactly the text api/plugins/api-key-auth.ts sends, the key hash inlined as MikroORM does. */
export const keyLookupSql = (keyHash: string) =>
  `select p.id as platform_id, p.subdomain, p.allowed_domains
       from platform_api_keys k join platforms p on p.id = k.platform_id
      where k.key_hash = ${pg.escapeLiteral(keyHash)} and k.revoked_at is null`;

/** Exactly the text api/access/catalogue.ts sends for `GET /api/courses`, the platform id inlined. */
export const courseListSql = (platformId: string) =>
  `select id, title from courses where platform_id = ${pg.escapeLiteral(platformId)} and active order by title, id`;

export interface CoursesOptions {
  http: HttpLoad;
  apiUrl: string;
  apiKey: string;
  databaseUrl: string;
  concurrency: number;
  warmupMs: number;
  rounds: number;
  roundMs: number;
  log: (line: string) => void;
}

export interface TargetFigures {
  /** Medians across rounds. */
  rps: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  /** Throughput and p99 of each round, for the spread and the paired (same-round) ratios. */
  rounds_rps: number[];
  rounds_p99_ms: number[];
}

export interface CoursesFigures {
  concurrency: number;
  rounds: number;
  round_s: number;
  api: TargetFigures;
  raw_sql: TargetFigures;
  bare_fastify: TargetFigures;
}

type TargetName = 'api' | 'raw_sql' | 'bare_fastify';
const TARGETS: TargetName[] = ['api', 'raw_sql', 'bare_fastify'];

export async function measureCourses(o: CoursesOptions): Promise<CoursesFigures> {
  const bare = Fastify({ logger: false });
  bare.get('/ping', async () => ({ ok: true }));
  const pingUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
  const pool = new pg.Pool({ connectionString: o.databaseUrl, max: POOL_MAX, statement_timeout: 10_000 });
  pool.on('error', () => undefined);
  try {
    const keySql = keyLookupSql(hashToken(o.apiKey));
    const rawRequest = async (): Promise<unknown[]> => {
      const key = await pool.query<{ platform_id: string }>(keySql);
      const platformId = key.rows[0]?.platform_id;
      if (!platformId) throw new Error('raw SQL: the key matched no platform');
      return (await pool.query(courseListSql(platformId))).rows;
    };
    await checkSameAnswer(o, rawRequest);

    const run = async (target: TargetName, durationMs: number): Promise<LoadResult> => {
      const { concurrency } = o;
      if (target === 'raw_sql') return closedLoop({ concurrency, durationMs, op: async () => void (await rawRequest()) });
      const url = target === 'api' ? `${o.apiUrl}/api/courses` : `${pingUrl}/ping`;
      const headers: Record<string, string> = target === 'api' ? { 'x-api-key': o.apiKey } : {};
      return (await o.http.run({ method: 'GET', url, headers, concurrency, durationMs, expectStatus: 200 })).result;
    };

    for (const target of TARGETS) {
      const warm = await run(target, o.warmupMs);
      if (warm.errors) throw new Error(`${target} warm-up: ${warm.errors} errors, first: ${warm.firstError}`);
    }
    const results: Record<TargetName, LoadResult[]> = { api: [], raw_sql: [], bare_fastify: [] };
    for (let round = 0; round < o.rounds; round++) {
      const order = TARGETS.map((_, i) => TARGETS[(i + round) % TARGETS.length]!);
      for (const target of order) results[target].push(await run(target, o.roundMs));
      const rps = (t: TargetName) => Math.round(throughput(results[t].at(-1)!));
      o.log(`courses round ${round + 1}/${o.rounds}: api ${rps('api')} req/s, raw SQL ${rps('raw_sql')}/s, bare Fastify ${rps('bare_fastify')} req/s`);
    }
    return {
      concurrency: o.concurrency,
      rounds: o.rounds,
      round_s: o.roundMs / 1000,
      api: figures(results.api),
      raw_sql: figures(results.raw_sql),
      bare_fastify: figures(results.bare_fastify),
    };
  } finally {
    await pool.end();
    await bare.close();
  }
}

const throughput = (r: LoadResult) => r.ok / (r.elapsedMs / 1000);

function figures(rounds: LoadResult[]): TargetFigures {
  return {
    rps: median(rounds.map(throughput)),
    p50_ms: median(rounds.map((r) => percentile(r.latenciesMs, 50))),
    p99_ms: median(rounds.map((r) => percentile(r.latenciesMs, 99))),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    rounds_rps: rounds.map(throughput),
    rounds_p99_ms: rounds.map((r) => percentile(r.latenciesMs, 99)),
  };
}

/** The baseline must do the API's work: both must list the same courses in the same order. */
async function checkSameAnswer(o: CoursesOptions, rawRequest: () => Promise<unknown[]>): Promise<void> {
  const res = await fetch(`${o.apiUrl}/api/courses`, { headers: { 'x-api-key': o.apiKey }, signal: AbortSignal.timeout(10_000) });
  const api = JSON.stringify(((await res.json()) as { courses?: unknown }).courses);
  const raw = JSON.stringify(await rawRequest());
  if (res.status !== 200 || api !== raw) throw new Error(`GET /api/courses (${res.status}) and the raw SQL disagree:\n  api: ${api}\n  sql: ${raw}`);
}
