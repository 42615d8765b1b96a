import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { INewsletterSubscriber } from '../../../db/entities/shop/index.ts';
import { personalEmailHash } from '../../../db/repositories/shared/personal-data/salt.ts';
import { sequencesForTrigger } from '../../../db/repositories/shop/mail-sequences.ts';
import { signUpForNewsletter } from '../../../db/repositories/shop/newsletter-subscribers.ts';
import { HttpError } from '../../shared/errors.ts';
import type { WorkflowStarter } from '../../shared/workflow-starts/index.ts';

/** Seconds a client is asked to wait before repeating a sign-up whose sequences could not be started. */
export const SEQUENCE_START_RETRY_AFTER_S = 5;

class SequencesNotStarted extends HttpError {}

/** For a caller that answers without the runs: swallows the 503 of signUpWithSequences (already logged), rethrows anything else. */
export function unlessSequencesUnstarted(error: unknown): void {
  if (!(error instanceof SequencesNotStarted)) throw error;
}

/**
 * Signs `email` (normalised) up for the shop's newsletter and starts the mail sequences with the
 * `newsletter_subscription` trigger. Also on a repeated sign-up: a run is started once per
 * sequence and address, so a repeat only completes what an earlier attempt left unstarted.
 * Temporal unreachable after the row is saved is a 503 with Retry-After saying so: the client's
 * repeat of the request starts the runs.
 */
export async function signUpWithSequences(
  workflows: WorkflowStarter,
  em: EntityManager,
  log: FastifyBaseLogger,
  shopId: string,
  email: string,
): Promise<{ subscriber: INewsletterSubscriber; created: boolean }> {
  const signedUp = await signUpForNewsletter(em, shopId, email);
  const trigger = { kind: 'newsletter' } as const;
  const triggeredAt = new Date().toISOString();
  const sequences = await sequencesForTrigger(em, trigger);
  const recipient = { hash: await personalEmailHash(em, signedUp.subscriber.email), row: { kind: 'newsletter' as const, subscriberId: signedUp.subscriber.id } };
  try {
    for (const sequence of sequences) await workflows.shop.mailSequence({ shopId, sequenceId: sequence.id, recipient, trigger, triggeredAt });
  } catch (error) {
    log.error({ err: error, shopId }, 'newsletter sequences could not be started');
    throw new SequencesNotStarted(503, 'the sign-up is saved, but its mail sequences could not be started: repeat the request', undefined, { 'retry-after': String(SEQUENCE_START_RETRY_AFTER_S) });
  }
  return signedUp;
}
