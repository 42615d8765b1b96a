import { WorkflowExecutionAlreadyStartedError, type WithWorkflowArgs } from '@temporalio/common';
import { ParentClosePolicy, startChild, type ChildWorkflowOptions, type Workflow } from '@temporalio/workflow';
import type { AccessChildWorkflows } from '../access/contracts.ts';
import type { ShopChildWorkflows } from '../shop/contracts.ts';
import type { SharedChildWorkflows } from './contracts.ts';

/** Every workflow started as a child by its type name (the name workflows/index.ts exports it by), with its arguments. */
export interface ChildWorkflows extends ShopChildWorkflows, AccessChildWorkflows, SharedChildWorkflows {}

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
 *
 * A workflow of another module is named by its type (`startChildOnce('clearOrder', ...)`, the
 * arguments typed by its contract), so the starter never imports that workflow's module (issue 25).
 * The SDK issues the same command either way: a function is started under its name. The function
 * form stays for a workflow that starts one of its own module's workflows.
 */
export function startChildOnce<K extends keyof ChildWorkflows>(workflowType: K, options: StartChildOnceOptions & { args: ChildWorkflows[K] }): Promise<void>;
export function startChildOnce<W extends Workflow>(workflow: W, options: WithWorkflowArgs<W, StartChildOnceOptions>): Promise<void>;
export async function startChildOnce(workflow: string | Workflow, options: StartChildOnceOptions): Promise<void> {
  try {
    // The cast only restates `options` with the policy added: the overloads above type the arguments.
    const childOptions = { ...options, parentClosePolicy: ParentClosePolicy.ABANDON } as WithWorkflowArgs<Workflow, ChildOptions>;
    await (typeof workflow === 'string' ? startChild(workflow, childOptions) : startChild(workflow, childOptions));
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
