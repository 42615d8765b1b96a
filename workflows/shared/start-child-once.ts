import { WorkflowExecutionAlreadyStartedError, type WithWorkflowArgs } from '@temporalio/common';
import { ParentClosePolicy, startChild, type ChildWorkflowOptions, type Workflow } from '@temporalio/workflow';

/** What `startChild(workflowFunction, ...)` accepts (the SDK does not export the name). */
type ChildOptions = Omit<ChildWorkflowOptions, 'typeInfo'> & { typeInfo?: never };

export interface StartChildOnceOptions {
  workflowId: string;
  /** When the id may run again: never (one-shot effects) or only after a failure. */
  workflowIdReusePolicy: 'REJECT_DUPLICATE' | 'ALLOW_DUPLICATE_FAILED_ONLY';
}

/**
 * Starts a child workflow that outlives its parent (`ABANDON`), once per workflow id: a child
 * already started under that id (a repeated dispatch, a retried grant, a concurrent start) is the
 * normal answer, not a failure.
 */
export async function startChildOnce<W extends Workflow>(workflow: W, options: WithWorkflowArgs<W, StartChildOnceOptions>): Promise<void> {
  try {
    // The cast only restates `options` with the policy added: TypeScript cannot resolve the
    // conditional `args` type of a generic W.
    await startChild(workflow, { ...options, parentClosePolicy: ParentClosePolicy.ABANDON } as WithWorkflowArgs<W, ChildOptions>);
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
