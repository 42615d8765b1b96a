import type { EntityManager } from '@mikro-orm/postgresql';
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
import type { DirectStart, OutboxRecorder, RecordedStart, StartOrRecord, WorkflowType } from './outbox.ts';

export interface AccessCommand {
  item: AccessItem;
  /** The address's keyed hash (personalEmailHash): the workflow id names the person by it. */
  person: string;
  accessLevel?: AccessLevel;
  /** The command's number; its row in `access_command_people` holds the address and name (recordCommandPeople). */
  seq: number;
}

/** The workflow type of a grant or revoke command for an item kind. */
function commandWorkflow(command: 'grant' | 'revoke', item: AccessItem): WorkflowType {
  if (command === 'grant') return item.kind === 'course' ? 'grantCourseAccess' : 'grantAudiobookAccess';
  return item.kind === 'course' ? 'revokeCourseAccess' : 'revokeAudiobookAccess';
}

/** A grant or revoke command's workflow input: ids only, no address or name (the step reads them by `seq`). */
function commandInput(platformId: string, command: 'grant' | 'revoke', { item, accessLevel = 0, seq }: AccessCommand) {
  const itemRef = item.kind === 'course' ? { courseId: item.id } : { audiobookId: item.id };
  if (command === 'grant' && item.kind === 'course') return { platformId, ...itemRef, accessLevel, seq };
  return { platformId, ...itemRef, seq };
}

/**
 * The course platform's workflows as the api starts them (`app.workflows.access`), each with its
 * business id and start policy: grants and revokes (one workflow per command and sequence number),
 * orders, course mails, operator mails, test mails, quiz results and manual webhook redeliveries.
 *
 * None needs Temporal up for the write to answer. A write with a row of its own records its start
 * in the write's `em` (the outbox: the caller sends it with `startRecorded` after the commit). A
 * write that only starts its workflow (grants and revokes, login-link and test mails) starts it at
 * once under its deterministic id, and records it in the outbox only when Temporal does not take
 * it (`startOrRecord`: no insert and delete on the hot path).
 */
export function accessWorkflowStarts(outbox: OutboxRecorder, startOrRecord: StartOrRecord) {
  const once = async <K extends WorkflowType>(em: EntityManager, type: K, workflowId: string, args: Parameters<(typeof workflows)[K]>): Promise<string> => {
    await startOrRecord(em, [{ workflowType: type, workflowId, request: { kind: 'start', args } }]);
    return workflowId;
  };
  return {
    /** Starts one workflow per grant or revoke command (each has its own sequence number); those Temporal refuses are recorded in `em`. */
    async accessCommands(em: EntityManager, platformId: string, command: 'grant' | 'revoke', entries: AccessCommand[]): Promise<string[]> {
      const starts = entries.map((entry): DirectStart => ({
        workflowType: commandWorkflow(command, entry.item),
        workflowId: accessCommandWorkflowId({ platformId, item: entry.item, person: entry.person, command, seq: entry.seq }),
        request: { kind: 'start', args: [commandInput(platformId, command, entry)] },
      }));
      await startOrRecord(em, starts);
      return starts.map((s) => s.workflowId);
    },
    fulfilOrder(em: EntityManager, input: Parameters<typeof workflows.fulfilOrder>[0]): Promise<RecordedStart> {
      return outbox.recordOnce(em, 'fulfilOrder', orderWorkflowId({ ...input, step: 'fulfil' }), [input]);
    },
    cancelOrder(em: EntityManager, input: Parameters<typeof workflows.cancelOrder>[0]): Promise<RecordedStart> {
      return outbox.recordOnce(em, 'cancelOrder', orderWorkflowId({ ...input, step: 'cancel' }), [input]);
    },
    lessonCompleted(em: EntityManager, input: Parameters<typeof workflows.lessonCompleted>[0]): Promise<RecordedStart> {
      return outbox.recordOnce(em, 'lessonCompleted', lessonCompletedWorkflowId(input), [input]);
    },
    courseMailRollout(em: EntityManager, input: Parameters<typeof workflows.courseMailRollout>[0]): Promise<RecordedStart> {
      return outbox.recordOnce(em, 'courseMailRollout', courseMailRolloutWorkflowId(input), [input]);
    },
    mailLoginLink(em: EntityManager, input: Parameters<typeof workflows.mailLoginLink>[0]): Promise<string> {
      return once(em, 'mailLoginLink', loginLinkMailWorkflowId(input), [input]);
    },
    sendTestMail(em: EntityManager, input: Parameters<typeof workflows.sendTestMail>[0]): Promise<string> {
      return once(em, 'sendTestMail', testMailWorkflowId(input), [input]);
    },
    quizResultRecorded(em: EntityManager, input: Parameters<typeof workflows.quizResultRecorded>[0]): Promise<RecordedStart> {
      return outbox.recordOnce(em, 'quizResultRecorded', quizResultWorkflowId(input), [input]);
    },
    /** The `redelivery`-th manual redelivery of an (event, webhook) pair: one attempt, recorded with the delivery's claim. */
    redeliverWebhook(em: EntityManager, p: { platformId: string; webhookId: string; eventId: string; redelivery: number }): Promise<RecordedStart> {
      const input: Parameters<typeof workflows.deliverWebhook>[0] = { platformId: p.platformId, webhookId: p.webhookId, eventId: p.eventId, manual: true };
      return outbox.recordOnce(em, 'deliverWebhook', webhookRedeliveryWorkflowId(p), [input]);
    },
  };
}
