import type * as workflows from '../../../workflows/index.ts';

/** Every workflow type the worker registers (workflows/index.ts exports them by these names). */
export type WorkflowType = keyof typeof workflows;
