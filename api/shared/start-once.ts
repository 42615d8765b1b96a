import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type * as workflows from '../../workflows/index.ts';

/** Starts a one-shot workflow by name; resolves to its id. */
export type StartOnce = (type: keyof typeof workflows, workflowId: string, args: unknown[]) => Promise<string>;

/**
 * One-shot workflows (REJECT_DUPLICATE): a second start for the same id is a normal answer, not
 * a failure, so a repeated request joins the work its first attempt started.
 */
export function startOnceOn(client: Client, taskQueue: string): StartOnce {
  return async (type, workflowId, args) => {
    try {
      await client.workflow.start(type, { taskQueue, workflowId, args, workflowIdReusePolicy: 'REJECT_DUPLICATE' });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
    return workflowId;
  };
}
