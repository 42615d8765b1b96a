import type { EntityManager } from '@mikro-orm/postgresql';
import type { INewsletterSubscriber } from '../../../db/entities/shop/index.ts';
import { personalEmailHash } from '../../../db/repositories/shared/personal-data/salt.ts';
import { sequencesForTrigger } from '../../../db/repositories/shop/mail-sequences.ts';
import { signUpForNewsletter } from '../../../db/repositories/shop/newsletter-subscribers.ts';
import type { WorkflowStarter } from '../../shared/workflow-starts/index.ts';

/**
 * Signs `email` (normalised) up for the shop's newsletter and records, in the same transaction,
 * the runs of the mail sequences with the `newsletter_subscription` trigger (the outbox: sent once
 * committed, later when Temporal is down; a run is one per sequence and address, so a repeated
 * sign-up records them again and joins the runs already started).
 */
export async function signUpWithSequences(workflows: WorkflowStarter, em: EntityManager, shopId: string, email: string): Promise<{ subscriber: INewsletterSubscriber; created: boolean }> {
  const { signedUp, recorded } = await em.transactional(async (tx) => {
    const signedUp = await signUpForNewsletter(tx, shopId, email);
    const trigger = { kind: 'newsletter' } as const;
    const triggeredAt = new Date().toISOString();
    const sequences = await sequencesForTrigger(tx, shopId, trigger);
    const recipient = { hash: await personalEmailHash(tx, signedUp.subscriber.email), row: { kind: 'newsletter' as const, subscriberId: signedUp.subscriber.id } };
    const recorded = [];
    for (const sequence of sequences) recorded.push(await workflows.shop.mailSequence(tx, { shopId, sequenceId: sequence.id, recipient, trigger, triggeredAt }));
    return { signedUp, recorded };
  });
  await workflows.startRecorded(...recorded);
  return signedUp;
}
