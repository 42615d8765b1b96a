import type { Client } from '@temporalio/client';
import type { CourseGrantEntry } from '../domain/grant-entries.ts';
import { courseGrantWorkflowId } from '../domain/workflow-ids.ts';
import type { grantCourseAccess } from '../workflows/index.ts';

/**
 * Durable starts of background work. A start returns once Temporal has persisted it; a start
 * whose id is already running joins that run (USE_EXISTING), and a finished id may run again,
 * which is harmless because every activity is idempotent.
 */
export function createWorkflowStarter(client: Client, taskQueue: string) {
  const startOptions = { taskQueue, workflowIdConflictPolicy: 'USE_EXISTING', workflowIdReusePolicy: 'ALLOW_DUPLICATE' } as const;

  return {
    async grantCourses(platformId: string, entries: CourseGrantEntry[]): Promise<string[]> {
      return Promise.all(
        entries.map(async ({ course_id: courseId, email, name, access_level: accessLevel }) => {
          const workflowId = courseGrantWorkflowId({ platformId, courseId, email, accessLevel });
          await client.workflow.start<typeof grantCourseAccess>('grantCourseAccess', {
            ...startOptions,
            workflowId,
            args: [{ platformId, courseId, email, name: name ?? null, accessLevel }],
          });
          return workflowId;
        }),
      );
    },
  };
}

export type WorkflowStarter = ReturnType<typeof createWorkflowStarter>;
