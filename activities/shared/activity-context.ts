import { Context } from '@temporalio/activity';

/** The current activity's context, or null outside an activity (a script or a test calling the function). */
export function activityContext(): Context | null {
  try {
    return Context.current();
  } catch {
    return null;
  }
}

/** Tells Temporal this attempt is alive; outside an activity there is no one to tell. */
export function heartbeat(): void {
  activityContext()?.heartbeat();
}
