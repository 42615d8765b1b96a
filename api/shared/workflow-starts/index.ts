import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { FastifyBaseLogger } from 'fastify';
import { accessWorkflowStarts } from './access.ts';
import { heldStarts } from './after-commit.ts';
import { directStarter, outboxDispatcher, outboxRecorder, type OutboxSettings, type RecordedStart } from './outbox.ts';
import { sharedWorkflowStarts } from './shared.ts';
import { shopWorkflowStarts } from './shop.ts';

export type { AccessCommand } from './access.ts';
export type { OutboxSettings, RecordedStart } from './outbox.ts';

/**
 * The one way the api starts and signals workflows (`app.workflows`), one typed facade per
 * service: `access` (the course platform), `shop`, and `shared` (what both use). Durable starts: a
 * start returns once Temporal has persisted it. Workflows are started by name with their types
 * imported, so the API never loads workflow code; the Temporal client is called only in this
 * folder, never by a route.
 *
 * A write whose effects run in a workflow records its start in its own transaction instead (the
 * outbox, `outbox.ts`: the facade's methods that take the transaction's `em`), and after the commit
 * calls `startRecorded`: Temporal down, the write still answers and its workflow starts when
 * Temporal is back (`outbox.start()` looks for pending starts periodically). A write with no row
 * of its own starts its workflow at once and records it only when Temporal does not take it
 * (`directStarter`); the placement's `orderPlaced` is recorded by the placing statement itself.
 * Only the live-run operations (the state query, the end of a deleted sequence's runs, a deleted
 * discount's removal) call Temporal in the request.
 */
export function createWorkflowStarter(client: Client, taskQueue: string, outbox: { em: () => EntityManager; log: FastifyBaseLogger; settings?: OutboxSettings }) {
  const recorder = outboxRecorder(taskQueue);
  const dispatcher = outboxDispatcher({ client, taskQueue, ...outbox });
  const startOrRecord = directStarter({ client, taskQueue, log: outbox.log, settings: outbox.settings });
  return {
    access: accessWorkflowStarts(recorder, startOrRecord),
    shop: shopWorkflowStarts(client, recorder, startOrRecord),
    /** The task queue its starts go to (the placing statement records `orderPlaced` for it: db/repositories/shop/order-placement.ts). */
    taskQueue,
    shared: sharedWorkflowStarts(recorder),
    /**
     * Sends starts recorded in a committed transaction now; one Temporal refuses stays pending
     * (never throws). In a keyed request the write's transaction is the request's, still open:
     * they are sent right after its commit (after-commit.ts).
     */
    startRecorded(...recorded: (RecordedStart | null | undefined)[]): Promise<void> {
      const ids = recorded.flatMap((r) => (r ? [r.outboxId] : []));
      if (ids.length > 0 && heldStarts.getStore()?.hold(ids, dispatcher.dispatch)) return Promise.resolve();
      return dispatcher.dispatch(ids);
    },
    /** The periodic dispatch of pending starts (started and stopped with the app). */
    outbox: dispatcher,
  };
}

export type WorkflowStarter = ReturnType<typeof createWorkflowStarter>;
