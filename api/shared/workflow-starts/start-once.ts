import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type * as workflows from '../../../workflows/index.ts';

/** Every workflow type the worker registers (workflows/index.ts exports them by these names). */
export type WorkflowType = keyof typeof workflows;

/** Starts a one-shot workflow by name with its own argument types; resolves to its id. */
export type StartOnce = <K extends WorkflowType>(type: K, workflowId: string, args: Parameters<(typeof workflows)[K]>) => Promise<string>;

/**
 * One-shot workflows (REJECT_DUPLICATE): a second start for the same id is a normal answer, not
 * a failure, so a repeated request joins the work its first attempt started. Used by the
 * workflow facades of this folder only; routes go through `app.workflows`.
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
