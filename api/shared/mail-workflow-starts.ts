import { courseMailRolloutWorkflowId, lessonCompletedWorkflowId, loginLinkMailWorkflowId, testMailWorkflowId } from '../../domain/shared/workflow-ids.ts';
import type * as workflows from '../../workflows/index.ts';
import type { StartOnce } from './start-once.ts';

/** Starts of the mail workflows (configuration interface, learner progress); one-shot per business id. */
export function mailWorkflowStarts(startOnce: StartOnce) {
  return {
    lessonCompleted(input: Parameters<typeof workflows.lessonCompleted>[0]) {
      return startOnce('lessonCompleted', lessonCompletedWorkflowId(input), [input]);
    },
    courseMailRollout(input: Parameters<typeof workflows.courseMailRollout>[0]) {
      return startOnce('courseMailRollout', courseMailRolloutWorkflowId(input), [input]);
    },
    mailLoginLink(input: Parameters<typeof workflows.mailLoginLink>[0]) {
      return startOnce('mailLoginLink', loginLinkMailWorkflowId(input), [input]);
    },
    sendTestMail(input: Parameters<typeof workflows.sendTestMail>[0]) {
      return startOnce('sendTestMail', testMailWorkflowId(input), [input]);
    },
  };
}
