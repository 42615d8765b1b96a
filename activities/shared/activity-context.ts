import { Context } from '@temporalio/activity';

/** The current activity's context, or null outside an activity (a script or a test calling the function). */
export function activityContext(): Context | null {
  try {
    return Context.current();
  } catch {
    return null;
  }
}

/**
 * The current activity's context when its heartbeats reach Temporal: not outside an activity, and
 * not in a local activity, which has no heartbeat (its workflow task stands for it).
 */
export function heartbeatContext(): Context | null {
  const context = activityContext();
  return context && !context.info.isLocal ? context : null;
}

/** Tells Temporal this attempt is alive, when there is someone to tell (`heartbeatContext`). */
export function heartbeat(): void {
  heartbeatContext()?.heartbeat();
}
