/**
 * The Temporal baseline's workflow: it does nothing, so its start-to-completion time is Temporal's
 * own (start, one workflow task, completion). Bundled on its own (workflowsPath) and run by the
 * bench on its own task queue; it is not part of workflows/index.ts.
 */
export async function benchNoop(): Promise<void> {
  // nothing to do
}
