import type { EntityManager } from '@mikro-orm/postgresql';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { FastifyBaseLogger } from 'fastify';
import {
  claimDueWorkflowStarts,
  forgetWorkflowStart,
  noteWorkflowStartFailure,
  recordWorkflowStart,
  recordWorkflowStarts,
  type PendingWorkflowStartRow,
} from '../../../db/repositories/shared/pending-workflow-starts.ts';
import type * as workflows from '../../../workflows/index.ts';

/** Every workflow type the worker registers (workflows/index.ts exports them by these names). */
export type WorkflowType = keyof typeof workflows;

/**
 * What a recorded start sends once Temporal is reached: a one-shot start (REJECT_DUPLICATE: a
 * repeat joins the first run), a signal-with-start (`allowDuplicate`: a finished run's id may run
 * again), a signal or signals in order to a running workflow only (none running: nothing to tell),
 * or a restart (the id's run is terminated and a new one started, marked with the row's id: a
 * restart sent twice starts one run). Each is idempotent by its workflow id (and the signals by
 * what they carry), so a start sent twice (a dispatcher that died after Temporal accepted it)
 * changes nothing.
 */
export type OutboxRequest =
  | { kind: 'start'; args: unknown[] }
  | { kind: 'signalWithStart'; args: unknown[]; signal: string; signalArgs: unknown[]; allowDuplicate?: boolean }
  | { kind: 'signal'; signal: string; signalArgs: unknown[] }
  | { kind: 'signals'; signals: { signal: string; signalArgs: unknown[] }[] }
  | { kind: 'restart'; args: unknown[] };

/** A start recorded in a write's transaction: `app.workflows.startRecorded` sends it after the commit. */
export interface RecordedStart {
  outboxId: number;
  workflowId: string;
}

export interface OutboxSettings {
  /** How long one start may wait for Temporal (ms); past it, it is left to the next round. */
  deadlineMs?: number;
  /** When a start that failed (or whose dispatcher died) is tried again (s). */
  retryAfterSeconds?: number;
  /** How often pending starts are looked for (ms); 0: never (only the dispatch after each write). */
  intervalMs?: number;
}

const DEFAULTS: Required<OutboxSettings> = { deadlineMs: 2000, retryAfterSeconds: 10, intervalMs: 5000 };
const BATCH = 50;

/** Records starts in the caller's transaction, for the workflows of `taskQueue`. */
export function outboxRecorder(taskQueue: string) {
  async function record(em: EntityManager, workflowType: WorkflowType, workflowId: string, request: OutboxRequest): Promise<RecordedStart> {
    const outboxId = await recordWorkflowStart(em, { taskQueue, workflowType, workflowId, request });
    return { outboxId, workflowId };
  }
  return {
    record,
    /** A one-shot start (a repeat joins the first run), sent once `em`'s transaction has committed. */
    recordOnce<K extends WorkflowType>(em: EntityManager, type: K, workflowId: string, args: Parameters<(typeof workflows)[K]>): Promise<RecordedStart> {
      return record(em, type, workflowId, { kind: 'start', args });
    },
  };
}
export type OutboxRecorder = ReturnType<typeof outboxRecorder>;

/** The memo key under which a restart's run names the outbox row that started it. */
const RESTARTED_BY = 'restartedByOutboxStart';

/**
 * A restart is done when the id's latest run was started by this very row (a dispatcher that died
 * after Temporal took it). Its own mark, not a time: a run begun between the row's insert and its
 * commit read the old row, and Temporal's clock is not PostgreSQL's. A later row's run is restarted
 * once more, which reads the same committed rows.
 */
async function restartedBy(client: Client, workflowId: string, outboxId: number): Promise<boolean> {
  try {
    return (await client.workflow.getHandle(workflowId).describe()).memo?.[RESTARTED_BY] === outboxId;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

/** A start to send: a recorded row (`outboxId`) or a direct one (none). */
type Sendable = Pick<PendingWorkflowStartRow, 'taskQueue' | 'workflowType' | 'workflowId' | 'request'> & { outboxId?: number };

/** Sends one recorded start to Temporal; resolves when Temporal has it (or needs it no more). */
async function send(client: Client, row: Sendable): Promise<void> {
  const request = row.request as OutboxRequest;
  const { taskQueue, workflowId, workflowType, outboxId } = row;
  try {
    if (request.kind === 'start') {
      await client.workflow.start(workflowType, { taskQueue, workflowId, args: request.args, workflowIdReusePolicy: 'REJECT_DUPLICATE' });
    } else if (request.kind === 'signalWithStart') {
      const reuse = request.allowDuplicate ? { workflowIdReusePolicy: 'ALLOW_DUPLICATE' as const } : {};
      await client.workflow.signalWithStart(workflowType, { taskQueue, workflowId, args: request.args, signal: request.signal, signalArgs: request.signalArgs, ...reuse });
    } else if (request.kind === 'restart') {
      if (outboxId !== undefined && (await restartedBy(client, workflowId, outboxId))) return;
      const memo = outboxId === undefined ? {} : { memo: { [RESTARTED_BY]: outboxId } };
      await client.workflow.start(workflowType, { taskQueue, workflowId, args: request.args, workflowIdReusePolicy: 'ALLOW_DUPLICATE', workflowIdConflictPolicy: 'TERMINATE_EXISTING', ...memo });
    } else {
      const handle = client.workflow.getHandle(workflowId);
      const signals = request.kind === 'signal' ? [request] : request.signals;
      for (const { signal, signalArgs } of signals) await handle.signal(signal, ...signalArgs);
    }
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError && request.kind === 'start') return;
    if (error instanceof WorkflowNotFoundError && (request.kind === 'signal' || request.kind === 'signals')) return;
    throw error;
  }
}

/** One start a write sends at once, recorded in the outbox only when Temporal does not take it (`startOrRecord`). */
export interface DirectStart {
  workflowType: WorkflowType;
  workflowId: string;
  request: OutboxRequest;
}

/**
 * For a write with no row of its own (a grant only starts its workflow): each start is sent at
 * once with the outbox's deadline, and only those Temporal refuses or does not answer in time are
 * recorded, in `em`'s transaction, for the dispatcher's next round. The ids are deterministic, so a
 * start that landed although it timed out and is recorded too runs once (already started = done).
 * Never throws for Temporal: the write answers its 2xx either way.
 */
export function directStarter(deps: { client: Client; taskQueue: string; log: FastifyBaseLogger; settings?: OutboxSettings }) {
  const { client, taskQueue, log } = deps;
  const { deadlineMs } = { ...DEFAULTS, ...deps.settings };
  return async function startOrRecord(em: EntityManager, starts: readonly DirectStart[]): Promise<void> {
    const sent = await Promise.allSettled(
      starts.map((s) => client.connection.withDeadline(Date.now() + deadlineMs, () => send(client, { taskQueue, workflowType: s.workflowType, workflowId: s.workflowId, request: s.request }))),
    );
    const refused = starts.filter((_, i) => sent[i]!.status === 'rejected');
    if (refused.length === 0) return;
    log.warn({ err: (sent.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason, refused: refused.length }, 'workflow starts recorded in the outbox: Temporal did not take them now');
    await recordWorkflowStarts(
      em,
      refused.map((s) => ({ taskQueue, workflowType: s.workflowType, workflowId: s.workflowId, request: s.request })),
    );
  };
}
export type StartOrRecord = ReturnType<typeof directStarter>;

/**
 * Starts the recorded starts that are committed: right after a write (`dispatch(ids)`), and every
 * `intervalMs` for those Temporal refused (it was down) or whose dispatcher died. Several api
 * instances share the table: a claim puts a start off for the others while one tries it.
 */
export function outboxDispatcher(deps: { client: Client; taskQueue: string; em: () => EntityManager; log: FastifyBaseLogger; settings?: OutboxSettings }) {
  const { client, taskQueue, log } = deps;
  const settings = { ...DEFAULTS, ...deps.settings };
  let timer: NodeJS.Timeout | null = null;
  let round: Promise<void> | null = null;

  async function dispatch(ids?: readonly number[]): Promise<number> {
    if (ids && ids.length === 0) return 0;
    const em = deps.em();
    const due = await claimDueWorkflowStarts(em, { taskQueue, ids, limit: ids ? ids.length : BATCH, retryAfterSeconds: settings.retryAfterSeconds });
    const sendOne = async (row: (typeof due)[number]): Promise<number> => {
      try {
        await client.connection.withDeadline(Date.now() + settings.deadlineMs, () => send(client, { ...row, outboxId: row.id }));
        await forgetWorkflowStart(em, row.id);
        return 1;
      } catch (error) {
        log.warn({ err: error, workflowId: row.workflowId, attempts: row.attempts }, 'workflow start left pending: Temporal did not take it; tried again later');
        await noteWorkflowStartFailure(em, row.id, String(error)).catch(() => undefined);
        return 0;
      }
    };
    // One workflow's rows in the order they were recorded (a start, then its signals); workflows side by side,
    // so a write's reply waits one deadline at most when Temporal is down, not one per start.
    const byWorkflow = new Map<string, typeof due>();
    for (const row of due) byWorkflow.set(row.workflowId, [...(byWorkflow.get(row.workflowId) ?? []), row]);
    const counts = await Promise.all(
      [...byWorkflow.values()].map(async (rows) => {
        let started = 0;
        for (const row of rows) started += await sendOne(row);
        return started;
      }),
    );
    return counts.reduce((a, b) => a + b, 0);
  }

  /** Never throws: a start not sent now stays pending and is tried again. */
  async function dispatchQuietly(ids?: readonly number[]): Promise<void> {
    try {
      await dispatch(ids);
    } catch (error) {
      log.error({ err: error }, 'pending workflow starts could not be read');
    }
  }

  return {
    dispatch: dispatchQuietly,
    /** Looks for pending starts every `intervalMs` until `stop`. */
    start(): void {
      if (settings.intervalMs <= 0 || timer) return;
      timer = setInterval(() => {
        round ??= dispatchQuietly().finally(() => {
          round = null;
        });
      }, settings.intervalMs);
      timer.unref();
    },
    /** Stops looking; resolves once a round under way has ended. */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await round;
    },
  };
}
export type OutboxDispatcher = ReturnType<typeof outboxDispatcher>;
