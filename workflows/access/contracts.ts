/**
 * Inputs of the access workflows, apart from their code: those other workflows start as children
 * (the shop's course access effect, a grant's course mails), by type name, so the starter imports
 * these types and never the workflow module; and what two workflow files share (the revokes).
 */
import type { OrderFulfilmentInput } from '../../activities/access/grants.ts';

export type FulfilOrderInput = OrderFulfilmentInput;

/** A revoke command's common fields (the course or audiobook id beside them). */
export interface RevokeAccessInput {
  platformId: string;
  /**
   * Runs started before issue 41 item 3 only (normalised e-mail): new ones carry the command's
   * number alone, and its step reads the address from the command's row.
   */
  email?: string;
  seq: number;
}

export interface CourseEnrolmentMailsInput {
  platformId: string;
  courseId: string;
  participantId: string;
  /** The participant had an account before this grant (reinvitation instead of invitation). */
  existingParticipant: boolean;
}

export interface CancelOrderInput {
  platformId: string;
  orderId: string;
}

/** Type name -> arguments. */
export interface AccessChildWorkflows {
  fulfilOrder: [FulfilOrderInput];
  cancelOrder: [CancelOrderInput];
  courseEnrolmentMails: [CourseEnrolmentMailsInput];
}
