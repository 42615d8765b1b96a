import type { Client } from '@temporalio/client';
import type { AccessLevel } from '../../../domain/access/access-level.ts';
import {
  accessCommandWorkflowId,
  courseMailRolloutWorkflowId,
  lessonCompletedWorkflowId,
  loginLinkMailWorkflowId,
  orderWorkflowId,
  quizResultWorkflowId,
  testMailWorkflowId,
  webhookRedeliveryWorkflowId,
  type AccessItem,
} from '../../../domain/shared/workflow-ids.ts';
import type * as workflows from '../../../workflows/index.ts';
import type { StartOnce } from './start-once.ts';

export interface AccessCommand {
  item: AccessItem;
  email: string;
  /** The address's keyed hash (personalEmailHash): the workflow id names the person by it. */
  person: string;
  name?: string | null;
  accessLevel?: AccessLevel;
  seq: number;
}

/**
 * The course platform's workflows as the api starts them (`app.workflows.access`), each with its
 * business id and start policy: grants and revokes (one workflow per command and sequence number),
 * orders, course mails, operator mails, test mails, quiz results and manual webhook redeliveries.
 */
export function accessWorkflowStarts(client: Client, taskQueue: string, startOnce: StartOnce) {
  /** One grant or revoke command: the workflow of its command and item kind. */
  async function startCommand(platformId: string, command: 'grant' | 'revoke', { item, email, person, name, accessLevel = 0, seq }: AccessCommand): Promise<string> {
    const workflowId = accessCommandWorkflowId({ platformId, item, person, command, seq });
    const options = { taskQueue, workflowId };
    if (command === 'grant' && item.kind === 'course') {
      await client.workflow.start<typeof workflows.grantCourseAccess>('grantCourseAccess', {
        ...options,
        args: [{ platformId, courseId: item.id, email, name: name ?? null, accessLevel, seq }],
      });
    } else if (command === 'grant') {
      await client.workflow.start<typeof workflows.grantAudiobookAccess>('grantAudiobookAccess', {
        ...options,
        args: [{ platformId, audiobookId: item.id, email, name: name ?? null, seq }],
      });
    } else if (item.kind === 'course') {
      await client.workflow.start<typeof workflows.revokeCourseAccess>('revokeCourseAccess', { ...options, args: [{ platformId, courseId: item.id, email, seq }] });
    } else {
      await client.workflow.start<typeof workflows.revokeAudiobookAccess>('revokeAudiobookAccess', { ...options, args: [{ platformId, audiobookId: item.id, email, seq }] });
    }
    return workflowId;
  }

  return {
    /** Starts one workflow per grant or revoke command; each command has its own sequence number. */
    accessCommands(platformId: string, command: 'grant' | 'revoke', entries: AccessCommand[]): Promise<string[]> {
      return Promise.all(entries.map((entry) => startCommand(platformId, command, entry)));
    },
    fulfilOrder(input: Parameters<typeof workflows.fulfilOrder>[0]) {
      return startOnce('fulfilOrder', orderWorkflowId({ ...input, step: 'fulfil' }), [input]);
    },
    cancelOrder(input: Parameters<typeof workflows.cancelOrder>[0]) {
      return startOnce('cancelOrder', orderWorkflowId({ ...input, step: 'cancel' }), [input]);
    },
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
    quizResultRecorded(input: Parameters<typeof workflows.quizResultRecorded>[0]) {
      return startOnce('quizResultRecorded', quizResultWorkflowId(input), [input]);
    },
    /** The `redelivery`-th manual redelivery of an (event, webhook) pair: one attempt. */
    redeliverWebhook(p: { platformId: string; webhookId: string; eventId: string; redelivery: number }) {
      const input: Parameters<typeof workflows.deliverWebhook>[0] = { platformId: p.platformId, webhookId: p.webhookId, eventId: p.eventId, manual: true };
      return startOnce('deliverWebhook', webhookRedeliveryWorkflowId(p), [input]);
    },
  };
}
