import type { Orm } from '../db/orm.ts';

/** What activities need from the outside world; the worker builds it once, tests pass their own. */
export interface ActivityDeps {
  orm: Orm;
  /** Participant-facing app URL; `{subdomain}` is replaced by the platform's subdomain. */
  platformUrlTemplate: string;
  now?: () => Date;
}
