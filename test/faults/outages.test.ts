/**
 * Issue 41 item 5: the reproduction of the outages, bounded and on loopback. PostgreSQL and
 * Temporal run as processes of this file's own (an embedded PostgreSQL supervised as `npm start`
 * supervises it, a Temporal dev server on a SQLite file the test starts again on its port), and
 * each is SIGKILLed under a burst of writes of every kind that starts a workflow (keyed where the
 * interface takes an Idempotency-Key, the shop's; the course platform's grants and the operator's
 * erasures are repeated as they are). Every write is retried as a client does until it has a final
 * answer. After recovery: every write's last answer is its success (replayed or run once),
 * nothing is doubled, every effect ran once.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities/index.ts';
import { buildApp, type App } from '../../api/app.ts';
import { migrate, openOrm, type Orm } from '../../db/orm.ts';
import { findFreePort, sleep } from '../../scripts/stack/lifecycle.ts';
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedPostgres } from '../../scripts/stack/postgres.ts';
import { startTemporalDevServer, type TemporalServer } from '../../scripts/stack/temporal.ts';
import { bundleWorkflows, createWorker } from '../../worker/create-worker.ts';
import { createCourse, createPlatform } from '../helpers/fixtures.ts';
import { insertProduct } from '../helpers/shop-catalogue.ts';
import { insertSubscriber } from '../helpers/shop-subscribers.ts';
import { createTestShop, operator, type TestShop } from '../helpers/shop.ts';
import { ADMIN_TOKEN, PLATFORM_URL_TEMPLATE, eventually } from '../helpers/stack.ts';
import { onTaskQueue, workflowsSettled } from '../helpers/workflows-settled.ts';

const BACKOFF = { initialMs: 300, maxMs: 1_000, stableAfterMs: 60_000 };
/** How long a client keeps retrying one write (503, 409, a cut connection) before the test fails it. */
const CLIENT_PATIENCE_MS = 90_000;
const PER_KIND = 6;

const dir = mkdtempSync(path.join(os.tmpdir(), 'coursehub-outages-'));
const taskQueue = `outages-${randomUUID().slice(0, 8)}`;
let postgres: EmbeddedPostgres;
let temporal: TemporalServer;
let orm: Orm;
let app: App;
let client: Client;
let worker: Worker;
let running: Promise<void>;
let shop: TestShop;
let productId: number;
let planId: number;
let platform: { id: string; apiKey: string };
let courseId: string;

/** The dev server on its SQLite file (what it held is there again after a restart), on the same port once it has one. */
const temporalOptions = (port?: number) => ({ dbFile: path.join(dir, 'temporal.sqlite'), log: () => undefined, ...(port && { port }) });

beforeAll(async () => {
  postgres = await startEmbeddedPostgres({ dataDir: path.join(dir, 'postgres'), port: await findFreePort(), persistent: true, log: () => undefined, restartOnCrash: { backoff: BACKOFF } });
  const databaseUrl = await ensureDatabase(postgres.adminUrl, 'coursehub');
  orm = await openOrm({ databaseUrl });
  await migrate(orm);
  temporal = await startTemporalDevServer(temporalOptions());
  client = new Client({ connection: await Connection.connect({ address: temporal.address }), namespace: 'default' });
  app = await buildApp({ orm, temporal: client, taskQueue, adminToken: ADMIN_TOKEN, rateLimits: { enabled: false }, workflowOutbox: { deadlineMs: 1_000, retryAfterSeconds: 1, intervalMs: 300 } });
  const connection = await NativeConnection.connect({ address: temporal.address });
  worker = await createWorker({ connection, namespace: 'default', taskQueue, activities: createActivities({ orm, platformUrlTemplate: PLATFORM_URL_TEMPLATE }), workflowBundle: await bundleWorkflows() });
  running = worker.run();

  shop = await createTestShop(app, 'outages');
  productId = await insertProduct(orm, shop.id, { name: 'Book', price: '40.00' });
  const plan = await app.inject({ method: 'POST', url: '/api/v1/subscription_plans', headers: shop.headers(), payload: { subscription_plan: { name: 'Monthly' } } });
  planId = plan.json().data.id;
  const made = await createPlatform(app, 'Outages');
  platform = { id: made.id, apiKey: made.apiKey };
  courseId = (await createCourse(app, platform.id)).id;
}, 240_000);

afterAll(async () => {
  worker?.shutdown();
  await running?.catch(() => undefined);
  await app?.close();
  await client?.connection.close();
  await orm?.close(true);
  await temporal?.stop();
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Write {
  kind: 'clear' | 'status' | 'discount' | 'grant' | 'subscriber' | 'erase';
  /** What the write is about: the order, the discount's value, the subscriber, the person's address. */
  subject: string;
  method: 'POST' | 'PATCH';
  url: string;
  headers: Record<string, string>;
  payload?: object;
}

interface Outcome {
  write: Write;
  /** Every answer the client was given, in order (`network`: no answer). */
  answers: (number | 'network')[];
  last: { status: number; body: any; replayed: boolean } | null;
}

/** A client's write: sent again as is (a keyed one with its key) after a 5xx, a 409 or a lost answer, until it has a final one. */
async function sendUntilAnswered(write: Write, answered: () => void): Promise<Outcome> {
  const outcome: Outcome = { write, answers: [], last: null };
  const deadline = Date.now() + CLIENT_PATIENCE_MS;
  while (Date.now() < deadline) {
    const res = await app.inject({ method: write.method, url: write.url, headers: write.headers, ...(write.payload && { payload: write.payload }) }).catch(() => null);
    outcome.answers.push(res ? res.statusCode : 'network');
    answered();
    // A 409 of a key still held is retried; a replayed reply (a kept 409 too) is final.
    if (res && res.statusCode < 500 && (res.statusCode !== 409 || res.headers['idempotent-replayed'] === 'true')) {
      outcome.last = { status: res.statusCode, body: res.body ? res.json() : null, replayed: res.headers['idempotent-replayed'] === 'true' };
      return outcome;
    }
    await sleep(250);
  }
  return outcome;
}

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
const keyed = (headers: Record<string, string>) => ({ ...headers, 'idempotency-key': randomUUID() });

async function placeOrder(email: string): Promise<number> {
  const res = await app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/orders`, headers: operator, payload: { email, items: [{ product_id: productId }] } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as number;
}

/** A burst of every kind of keyed write that starts a workflow; `round` keeps the rounds' subjects apart. */
async function burst(round: string): Promise<Write[]> {
  const writes: Write[] = [];
  for (let i = 0; i < PER_KIND; i += 1) {
    const cleared = await placeOrder(`clear-${round}-${i}@example.com`);
    writes.push({ kind: 'clear', subject: String(cleared), method: 'PATCH', url: `/api/v1/orders/${cleared}/clear`, headers: keyed(shop.headers()) });
    const moved = await placeOrder(`status-${round}-${i}@example.com`);
    writes.push({ kind: 'status', subject: String(moved), method: 'PATCH', url: `/api/v1/orders/${moved}/status`, headers: keyed(shop.headers()), payload: { order_status_id: shop.statuses['Sent']! } });
    const value = `${round === 'postgres' ? 10 : 30}.${i + 1}0`;
    writes.push({
      kind: 'discount',
      subject: value,
      method: 'POST',
      url: '/api/v1/time_limited_discounts',
      headers: keyed(shop.headers()),
      payload: { discount_type: 'percentage_product_discount', value, relation_with_products: 'all_products', start_date: inDays(1), end_date: inDays(2) },
    });
    const email = `grant-${round}-${i}-${randomUUID().slice(0, 6)}@example.com`;
    // The course platform's API takes no key: a grant is repeated as is (granting twice is one access).
    writes.push({ kind: 'grant', subject: email, method: 'POST', url: '/api/courses/subscribe', headers: { 'x-api-key': platform.apiKey, 'content-type': 'application/json' }, payload: { subscriptions: { course_id: courseId, email } } });
    const subscriberId = await insertSubscriber(orm, shop.id, { planId });
    writes.push({ kind: 'subscriber', subject: String(subscriberId), method: 'PATCH', url: `/api/v1/subscribers/${subscriberId}`, headers: keyed(shop.headers()), payload: { renewal_paused: true } });
    // The operator API takes no key: an erasure is repeated as is (it joins the person's erasure).
    const person = `erase-${round}-${i}@example.com`;
    await placeOrder(person);
    writes.push({ kind: 'erase', subject: person, method: 'POST', url: `/admin/v1/shops/${shop.id}/customers/erase`, headers: operator, payload: { email: person } });
  }
  return writes;
}

/** Tallies the answers of a burst in one line (the figures the note quotes). */
function report(what: string, outcomes: Outcome[]): Outcome[] {
  const tally = new Map<string, number>();
  for (const answer of outcomes.flatMap((o) => o.answers)) tally.set(String(answer), (tally.get(String(answer)) ?? 0) + 1);
  console.log(`outages ${what}: ${outcomes.length} writes, answers ${JSON.stringify(Object.fromEntries(tally))}, replayed ${outcomes.filter((o) => o.last?.replayed).length}`);
  return outcomes;
}

/** Sends `writes` at once and SIGKILLs the process `pid()` names once the first answer is back (the rest are in flight); resolves with every write's final answer. */
async function killMidBurst(writes: Write[], pid: () => number | null | undefined): Promise<Outcome[]> {
  let firstAnswer!: () => void;
  const flowing = new Promise<void>((resolve) => (firstAnswer = resolve));
  const outcomes = Promise.all(writes.map((write) => sendUntilAnswered(write, firstAnswer)));
  await flowing;
  kill(pid);
  return report('PostgreSQL', await outcomes);
}

function kill(pid: () => number | null | undefined): void {
  const victim = pid();
  expect(victim, 'the process to kill is running').toBeTypeOf('number');
  process.kill(victim!, 'SIGKILL');
}

const rows = <T>(sql: string, params: unknown[] = []) => orm.em.fork().getConnection().execute<T[]>(sql, params);

/** What the truthful ends are: each write's success, once, whatever its answers on the way. */
async function expectTruthful(outcomes: Outcome[], since: Date): Promise<void> {
  const unfinished = outcomes.filter((o) => o.last === null).map((o) => `${o.write.kind} ${o.write.subject}: ${o.answers.join(',')}`);
  expect(unfinished, 'writes without a final answer within the client patience').toEqual([]);
  const success: Record<Write['kind'], number> = { clear: 200, status: 200, discount: 201, grant: 200, subscriber: 200, erase: 202 };
  const wrong = outcomes.filter((o) => o.last!.status !== success[o.write.kind]).map((o) => `${o.write.kind} ${o.write.subject}: ${o.answers.join(',')} ${JSON.stringify(o.last!.body)}`);
  expect(wrong, 'writes whose last answer is not their success').toEqual([]);

  // Every effect ran, and once: the workflows have settled, then nothing is there twice.
  // Every start has left the outbox, and every write's workflow (one at least each; a subscriber
  // without a running renewal has none to signal) is visible and settled.
  await eventually(async () => expect(await rows('select 1 from pending_workflow_starts')).toEqual([]), { timeoutMs: 60_000 });
  await workflowsSettled(client, onTaskQueue(taskQueue), { started: outcomes.filter((o) => o.write.kind !== 'subscriber').length, since, timeoutMs: 120_000 });
  const of = (kind: Write['kind']) => outcomes.filter((o) => o.write.kind === kind).map((o) => o.write.subject);

  const clearedIds = of('clear').map(Number);
  const paid = await rows<{ id: number; paid: boolean }>('select id, paid from shop_orders where id in (?)', [clearedIds]);
  expect(paid.filter((o) => !o.paid)).toEqual([]);
  const movedIds = of('status').map(Number);
  const changes = await rows<{ order_id: number; n: string }>('select order_id, count(*) as n from shop_order_status_changes where order_id in (?) group by order_id', [movedIds]);
  expect(changes.map((c) => [c.order_id, Number(c.n)]).sort()).toEqual(movedIds.map((id) => [id, 1]).sort());
  const effectsRan = await rows<{ order_id: number }>("select distinct order_id from shop_order_effects where order_id in (?) and (source = 'clear' or source like 'status:%')", [[...clearedIds, ...movedIds]]);
  expect(effectsRan.map((e) => e.order_id).sort()).toEqual([...clearedIds, ...movedIds].sort());
  const twice = await rows('select order_id, source, effect, target, count(*) as n from shop_order_effects where order_id in (?) group by 1, 2, 3, 4 having count(*) > 1', [[...clearedIds, ...movedIds]]);
  expect(twice, 'an order effect logged twice').toEqual([]);

  const discounts = await rows<{ value: string; n: string }>('select value::text as value, count(*) as n from shop_automatic_discounts where shop_id = ? and value in (?) group by value', [shop.id, of('discount')]);
  expect(discounts.map((d) => [Number(d.value), Number(d.n)]).sort()).toEqual(of('discount').map((v) => [Number(v), 1]).sort());

  const paused = await rows<{ id: number }>('select id from shop_subscribers where id in (?) and renewal_paused', [of('subscriber').map(Number)]);
  expect(paused.map((p) => String(p.id)).sort()).toEqual(of('subscriber').sort());
  const erasedLeft = await rows<{ email: string }>('select email from shop_orders where shop_id = ? and email in (?)', [shop.id, of('erase')]);
  expect(erasedLeft, 'orders still carrying an erased address').toEqual([]);

  const enrolments = await rows<{ email: string; enrolments: string; sources: string }>(
    `select p.email, (select count(*) from enrolments e where e.participant_id = p.id and e.course_id = ?) as enrolments,
            (select count(*) from access_sources s where s.participant_id = p.id and s.course_id = ?) as sources
       from participants p where p.platform_id = ? and p.email in (?)`,
    [courseId, courseId, platform.id, of('grant')],
  );
  expect(enrolments.map((e) => [e.email, Number(e.enrolments), Number(e.sources)]).sort()).toEqual(of('grant').map((email) => [email, 1, 1]).sort());
}

describe('keyed writes across an outage', () => {
  it('PostgreSQL killed under a burst: every keyed retry answers the success, nothing doubled, every effect once', async () => {
    const writes = await burst('postgres');
    const since = new Date();
    const outcomes = await killMidBurst(writes, () => postgres.pid?.());
    expect(outcomes.some((o) => o.answers.length > 1), 'the kill met some writes mid-request').toBe(true);
    // The database away is a 503 (retry), never a 500.
    expect(outcomes.filter((o) => o.answers.includes(500)).map((o) => `${o.write.kind} ${o.write.subject}: ${o.answers.join(',')}`)).toEqual([]);
    await expectTruthful(outcomes, since);
  }, 300_000);

  it('Temporal killed: the writes sent while it is away answer their success, and their effects run once it is back', async () => {
    const writes = await burst('temporal');
    const since = new Date();
    kill(() => temporal.pid?.());
    // Temporal comes back (on its port and file, as npm start restarts it) only once every write has had a first answer.
    let firsts = 0;
    let everyFirst!: () => void;
    const answeredOnce = new Promise<void>((resolve) => (everyFirst = resolve));
    const outcomes = Promise.all(
      writes.map((write) => {
        let first = true;
        return sendUntilAnswered(write, () => {
          if (first && ++firsts === writes.length) everyFirst();
          first = false;
        });
      }),
    );
    await answeredOnce;
    temporal = await startTemporalDevServer(temporalOptions(Number(temporal.address.split(':')[1])));
    const done = report('Temporal', await outcomes);
    // Temporal away is no reason to refuse a write: its start waits in the outbox.
    const refused = done.filter((o) => o.answers[0] !== (o.last?.status ?? -1)).map((o) => `${o.write.kind} ${o.write.subject}: ${o.answers.join(',')}`);
    expect(refused, 'writes not answered their success at once while Temporal was away').toEqual([]);
    await expectTruthful(done, since);
  }, 300_000);
});
