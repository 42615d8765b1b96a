import { ApplicationFailure } from '@temporalio/common';
import type { AccessLevel } from '../domain/access-level.ts';
import type { ActivityDeps } from './deps.ts';

export interface ApplyCourseGrantInput {
  platformId: string;
  participantId: string;
  courseId: string;
  accessLevel: AccessLevel;
}

export interface AppliedCourseGrant {
  accessLevel: AccessLevel;
  created: boolean;
}

export function grantActivities({ orm }: ActivityDeps) {
  return {
    /**
     * Upserts the enrolment in one statement: a new enrolment starts now; an existing one keeps its
     * start and progress, is re-activated, and its level only rises (rules 3 and 4).
     * The course must belong to the same platform, which the `select` enforces.
     */
    async applyCourseGrant({ platformId, participantId, courseId, accessLevel }: ApplyCourseGrantInput): Promise<AppliedCourseGrant> {
      const rows: { access_level: number; created: boolean }[] = await orm.em.getConnection().execute(
        `insert into enrolments (id, platform_id, participant_id, course_id, access_level, active, started_at, updated_at)
         select gen_random_uuid(), c.platform_id, ?, c.id, ?, true, now(), now()
           from courses c where c.id = ? and c.platform_id = ?
         on conflict (participant_id, course_id) do update
           set access_level = greatest(enrolments.access_level, excluded.access_level),
               active = true,
               updated_at = now()
         returning access_level, (xmax = 0) as created`,
        [participantId, accessLevel, courseId, platformId],
      );
      const row = rows[0];
      if (!row) throw ApplicationFailure.nonRetryable(`course ${courseId} is not a course of platform ${platformId}`, 'CourseNotFound');
      return { accessLevel: row.access_level as AccessLevel, created: row.created };
    },
  };
}
