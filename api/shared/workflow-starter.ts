import type { Client } from '@temporalio/client';
import type { AccessLevel } from '../../domain/access/access-level.ts';
import { accessCommandWorkflowId, orderWorkflowId, type AccessItem } from '../../domain/shared/workflow-ids.ts';
import type * as workflows from '../../workflows/index.ts';
import { mailWorkflowStarts } from './mail-workflow-starts.ts';
import { shopWorkflowStarts } from './shop-workflow-starts.ts';
import { startOnceOn } from './start-once.ts';
import { webhookWorkflowStarts } from './webhook-workflow-starts.ts';

export interface AccessCommand {
  item: AccessItem;
  email: string;
  name?: string | null;
  accessLevel?: AccessLevel;
  seq: number;
}

/**
 * The one way the api starts and signals workflows (`app.workflows`): the course platform's and
 * the shared ones at the top, the shop's under `shop`. Durable starts: a start returns once
 * Temporal has persisted it. Workflows are started by name with their types imported, so the API
 * never loads workflow code; routes never call the Temporal client themselves.
 */
export function createWorkflowStarter(client: Client, taskQueue: string) {
  const startOnce = startOnceOn(client, taskQueue);

  return {
    /** Starts one workflow per grant or revoke command; each command has its own sequence number. */
    async accessCommands(platformId: string, command: 'grant' | 'revoke', entries: AccessCommand[]): Promise<string[]> {
      return Promise.all(
        entries.map(async ({ item, email, name, accessLevel = 0, seq }) => {
          const workflowId = accessCommandWorkflowId({ platformId, item, email, command, seq });
          const options = { taskQueue, workflowId };
          if (command === 'grant' && item.kind === 'course') {
            await client.workflow.start<typeof workflows.grantCourseAccess>('grantCourseAccess', {
              ...options,
              args: [{ platformId, courseId: item.id, email, name: name ?? null, accessLevel, seq }],
            });
          } else if (command === 'grant') {
            await client.workflow.start<typeof workflows.grantAudiobookAccess>('grantAudiobookAccess', {
              ...options,
              args: [{ platformId, audiobookId: item.id, email, name: name ?? null, seq }],
            });
          } else if (item.kind === 'course') {
            await client.workflow.start<typeof workflows.revokeCourseAccess>('revokeCourseAccess', { ...options, args: [{ platformId, courseId: item.id, email, seq }] });
          } else {
            await client.workflow.start<typeof workflows.revokeAudiobookAccess>('revokeAudiobookAccess', { ...options, args: [{ platformId, audiobookId: item.id, email, seq }] });
          }
          return workflowId;
        }),
      );
    },

    fulfilOrder(input: Parameters<typeof workflows.fulfilOrder>[0]) {
      return startOnce('fulfilOrder', orderWorkflowId({ ...input, step: 'fulfil' }), [input]);
    },

    cancelOrder(input: Parameters<typeof workflows.cancelOrder>[0]) {
      return startOnce('cancelOrder', orderWorkflowId({ ...input, step: 'cancel' }), [input]);
    },

    /**
     * A person's erasure (issue 29): started, or signalled when it runs already (the run goes
     * round once more), so concurrent requests make one run; a finished one may run again
     * (ALLOW_DUPLICATE), since the person may have come back.
     */
    async erasePersonalData(ref: Parameters<typeof workflows.erasePersonalData>[0], workflowId: string): Promise<string> {
      await client.workflow.signalWithStart<typeof workflows.erasePersonalData, []>('erasePersonalData', {
        taskQueue,
        workflowId,
        args: [ref],
        signal: 'erasureRequested',
        signalArgs: [],
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      });
      return workflowId;
    },

    ...mailWorkflowStarts(startOnce),
    ...webhookWorkflowStarts(startOnce),
    /** The shop's workflows (api/shared/shop-workflow-starts.ts). */
    shop: shopWorkflowStarts(client, taskQueue, startOnce),
  };
}

export type WorkflowStarter = ReturnType<typeof createWorkflowStarter>;
