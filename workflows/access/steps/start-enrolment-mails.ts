import { courseMailsWorkflowId } from '../../../domain/shared/workflow-ids.ts';
import type { CourseEnrolmentMailsInput } from '../contracts.ts';
import { startChildOnce } from '../../shared/start-child-once.ts';

/**
 * Called by the grant workflows once access to a course was applied. Starts the enrolment's course
 * mails (`courseEnrolmentMails`) as a child that outlives the grant; its id is per participant and
 * course, so a repeated or raised grant finds it started and nothing is sent twice.
 */
export async function startEnrolmentMails(p: CourseEnrolmentMailsInput & { applied: boolean }): Promise<void> {
  if (!p.applied) return;
  const { applied: _applied, ...input } = p;
  await startChildOnce('courseEnrolmentMails', { workflowId: courseMailsWorkflowId(input), args: [input], workflowIdReusePolicy: 'REJECT_DUPLICATE' });
}
