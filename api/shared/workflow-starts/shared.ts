import type { Client } from '@temporalio/client';
import type * as workflows from '../../../workflows/index.ts';

/** The workflows both services start (`app.workflows.shared`): a person's erasure in a platform or a shop. */
export function sharedWorkflowStarts(client: Client, taskQueue: string) {
  return {
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
  };
}
