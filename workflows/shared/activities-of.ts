// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- the one file that proxies activities
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { ActivityProfile } from './activity-profiles.ts';

/** A group's activities as a workflow calls them: each schedules its activity under its own name. */
export type ActivitiesOf<Group> = { readonly [Name in keyof Group]: Group[Name] };

/**
 * The activities of one file (its group type, e.g. `GrantActivities` of activities/access/grants.ts)
 * run by one profile (activity-profiles.ts): `const grants = activitiesOf<GrantActivities>(LOCAL_DB_STEP)`,
 * then `grants.grantCourse(...)`, so a call names the file that answers it. The only place that
 * proxies activities (eslint.config.js): the profile's kind picks an activity or a local activity.
 */
export function activitiesOf<Group>(profile: ActivityProfile): ActivitiesOf<Group> {
  // Each member of either proxy is the group's function (plus `executeWithOptions`, not used here);
  // TypeScript cannot see that for a group not yet known, hence the assertion.
  const proxy = profile.kind === 'local' ? proxyLocalActivities<Group>(profile.options) : proxyActivities<Group>(profile.options);
  return proxy as ActivitiesOf<Group>;
}
