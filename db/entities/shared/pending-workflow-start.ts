import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A workflow start (or signal) a write recorded in its own transaction (the outbox, issue 41):
 * it exists exactly when the write committed, and is deleted once Temporal has accepted it.
 * `request` holds what the start sends (api/shared/workflow-starts/outbox.ts). Read and written
 * by db/repositories/shared/pending-workflow-starts.ts only; not tenant-filtered (no tenant reads it).
 */
export const PendingWorkflowStart = defineEntity({
  name: 'PendingWorkflowStart',
  tableName: 'pending_workflow_starts',
  indexes: [{ properties: ['nextAttemptAt'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    taskQueue: p.text(),
    workflowType: p.text(),
    workflowId: p.text(),
    request: p.json<Record<string, unknown>>(),
    recordedAt: p.datetime(),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime(),
    lastError: p.text().nullable(),
  },
});
export type IPendingWorkflowStart = InferEntity<typeof PendingWorkflowStart>;
