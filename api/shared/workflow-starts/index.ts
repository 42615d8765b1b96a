import type { Client } from '@temporalio/client';
import { accessWorkflowStarts } from './access.ts';
import { sharedWorkflowStarts } from './shared.ts';
import { shopWorkflowStarts } from './shop.ts';
import { startOnceOn } from './start-once.ts';

export type { AccessCommand } from './access.ts';

/**
 * The one way the api starts and signals workflows (`app.workflows`), one typed facade per
 * service: `access` (the course platform), `shop`, and `shared` (what both use). Durable starts: a
 * start returns once Temporal has persisted it. Workflows are started by name with their types
 * imported, so the API never loads workflow code; the Temporal client is called only in this
 * folder, never by a route.
 */
export function createWorkflowStarter(client: Client, taskQueue: string) {
  const startOnce = startOnceOn(client, taskQueue);
  return {
    access: accessWorkflowStarts(client, taskQueue, startOnce),
    shop: shopWorkflowStarts(client, taskQueue, startOnce),
    shared: sharedWorkflowStarts(client, taskQueue),
  };
}

export type WorkflowStarter = ReturnType<typeof createWorkflowStarter>;
