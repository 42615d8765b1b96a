import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, startChild } from '@temporalio/workflow';
import type { AccessChildWorkflows } from '../access/contracts.ts';
import type { ShopChildWorkflows } from '../shop/contracts.ts';
import type { SharedChildWorkflows } from './contracts.ts';

/** Every workflow started as a child by its type name (the name workflows/index.ts exports it by), with its arguments. */
export interface ChildWorkflows extends ShopChildWorkflows, AccessChildWorkflows, SharedChildWorkflows {}

export interface StartChildOnceOptions {
  workflowId: string;
  /** When the id may run again: never (one-shot effects) or only after a failure. */
  workflowIdReusePolicy: 'REJECT_DUPLICATE' | 'ALLOW_DUPLICATE_FAILED_ONLY';
}

/**
 * Starts a child workflow that outlives its parent (`ABANDON`), once per workflow id: a child
 * already started under that id (a repeated dispatch, a retried grant, a concurrent start) is the
 * normal answer, not a failure.
 *
 * Every child is named by its type (`startChildOnce('clearOrder', ...)`, the arguments typed by its
 * contract), so no workflow module imports another (issue 25). The SDK issues the same command as
 * for a function: a function is started under its name.
 */
export async function startChildOnce<K extends keyof ChildWorkflows>(workflowType: K, options: StartChildOnceOptions & { args: ChildWorkflows[K] }): Promise<void> {
  try {
    await startChild(workflowType, { ...options, parentClosePolicy: ParentClosePolicy.ABANDON });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
