import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import { describe, expect, it } from 'vitest';
import type { Activities } from '../../../activities/index.ts';
import type { MailSequenceRun, SequenceSendOutcome } from '../../../activities/shop/mail-sequences.ts';
import type { EffectOutcome } from '../../../domain/shop/effects.ts';
import { mailSequenceWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import type { changeOrderStatus, mailSequence } from '../../../workflows/index.ts';
import { useFakeWorker } from '../../helpers/fake-worker.ts';
import { quietClearing } from '../../../scripts/histories/quiet-clearing.ts';
import { eventually, uniqueTaskQueue } from '../../helpers/stack.ts';

/**
 * Sequence runs on the real server with fake activities: the plan's instants are milliseconds
 * apart where production has minutes to days.
 */
const taskQueue = uniqueTaskQueue('shop-mail-sequence');
const shopId = `seq-${randomUUID().slice(0, 8)}`;

/** Per sequence id: the offsets (ms from the plan call) and the answer of each send. */
const offsets = new Map<number, number[]>();
const answers = new Map<number, (SequenceSendOutcome | 'refused' | 'down')[]>();
const sends: { run: MailSequenceRun & { itemId: number }; at: number; planned: number }[] = [];
const planned = new Map<string, number>();
const recorded: { effect: string; outcome: EffectOutcome }[] = [];
let nextOrderSequences: number[] = [];
/** The buyer as orderMailSequences names it: its keyed hash (or, as a result recorded before issue 41 item 3 did, the address). */
const BUYER_HASH = 'c'.repeat(64);
let buyerAsRecordedBefore = false;

// The other effects of a status change have nothing to do here.
const fakeActivities: Partial<Activities> = {
  ...quietClearing,
  async planMailSequence(run) {
    const now = Date.now();
    return (offsets.get(run.sequenceId) ?? []).map((ms, i) => {
      const sendAt = new Date(now + ms).toISOString();
      planned.set(`${run.sequenceId}/${run.recipient?.hash ?? run.email}/${i + 1}`, now + ms);
      return { itemId: i + 1, sendAt };
    });
  },
  async sendMailSequenceItem(run) {
    sends.push({ run, at: Date.now(), planned: planned.get(`${run.sequenceId}/${run.recipient?.hash ?? run.email}/${run.itemId}`)! });
    const answer = answers.get(run.sequenceId)?.[run.itemId - 1] ?? 'sent';
    if (answer === 'refused') throw ApplicationFailure.nonRetryable('relay refused the recipient', 'MailDeliveryRefused');
    if (answer === 'down') {
      // The relay is down for the first attempts of this message, then back.
      const attempts = sends.filter((s) => s.run.sequenceId === run.sequenceId && s.run.itemId === run.itemId).length;
      if (attempts <= 2) throw new Error('relay unreachable');
      return 'sent';
    }
    return answer;
  },
  async orderMailSequences({ orderId, statusId }) {
    const found = { statusId: statusId ?? 0, sequenceIds: nextOrderSequences };
    return buyerAsRecordedBefore ? { ...found, email: 'Buyer@Example.com' } : { ...found, recipient: { hash: BUYER_HASH, row: { kind: 'order', orderId } } };
  },
  async recordOrderEffect({ effect, outcome }) {
    recorded.push({ effect, outcome });
  },
};
const temporal = useFakeWorker(taskQueue, fakeActivities);

const run = (sequenceId: number): MailSequenceRun => ({
  shopId,
  sequenceId,
  recipient: { hash: 'd'.repeat(64), row: { kind: 'newsletter', subscriberId: 1 } },
  trigger: { kind: 'newsletter' },
  triggeredAt: new Date().toISOString(),
});
const execute = (input: MailSequenceRun) =>
  temporal.client().workflow.execute<typeof mailSequence>('mailSequence', { taskQueue, workflowId: mailSequenceWorkflowId({ ...input, recipient: input.recipient!.hash }), args: [input] });
const sendsOf = (sequenceId: number) => sends.filter((s) => s.run.sequenceId === sequenceId);

describe('mailSequence', () => {
  it('sends each message at its planned instant, in order', async () => {
    offsets.set(1, [0, 600, 1200]);
    expect(await execute(run(1))).toEqual({ sent: 3, stopped: false, failedItemIds: [] });
    const done = sendsOf(1);
    expect(done.map((s) => s.run.itemId)).toEqual([1, 2, 3]);
    for (const send of done) expect(send.at).toBeGreaterThanOrEqual(send.planned - 5);
    expect(done[2]!.at - done[0]!.planned).toBeGreaterThanOrEqual(1195);
  });

  it('stops the pending messages once the send finds the sequence off or its trigger removed', async () => {
    offsets.set(2, [0, 300, 600]);
    answers.set(2, ['sent', 'stopped', 'sent']);
    expect(await execute(run(2))).toEqual({ sent: 1, stopped: true, failedItemIds: [] });
    expect(sendsOf(2).map((s) => s.run.itemId)).toEqual([1, 2]);
  });

  it('goes on past a removed message', async () => {
    offsets.set(3, [0, 100]);
    answers.set(3, ['skipped', 'sent']);
    expect(await execute(run(3))).toEqual({ sent: 1, stopped: false, failedItemIds: [] });
  });

  it('retries a message while the relay is down instead of dropping it', async () => {
    offsets.set(4, [0, 0]);
    answers.set(4, ['down', 'sent']);
    expect(await execute(run(4))).toEqual({ sent: 2, stopped: false, failedItemIds: [] });
    expect(sendsOf(4).filter((s) => s.run.itemId === 1)).toHaveLength(3);
  }, 30_000);

  it('a message whose send gives up is reported in the result and the run goes on', async () => {
    offsets.set(5, [0, 0]);
    answers.set(5, ['refused', 'sent']);
    expect(await execute(run(5))).toEqual({ sent: 1, stopped: false, failedItemIds: [1] });
  });
});

describe('a status change starts the sequences of the order', () => {
  it('one run per sequence and address, recorded as mail_sequence; the same trigger again starts nothing new', async () => {
    offsets.set(10, [0]);
    offsets.set(11, [0]);
    nextOrderSequences = [10, 11];
    const change = (changeId: number) =>
      temporal.client().workflow.execute<typeof changeOrderStatus>('changeOrderStatus', { taskQueue, workflowId: `test/${randomUUID()}`, args: [{ shopId, orderId: 5, changeId, statusId: 3 }] });
    await change(1);
    expect(recorded.find((r) => r.effect === 'mail_sequence')?.outcome).toEqual({ status: 'done', detail: "sequences 10, 11 started for the order's buyer" });
    const ids = [10, 11].map((sequenceId) => mailSequenceWorkflowId({ shopId, sequenceId, recipient: BUYER_HASH }));
    expect(ids[0]).toBe(`shop/${shopId}/sequence/10/${BUYER_HASH}`);
    for (const id of ids) expect(await temporal.client().workflow.getHandle(id).result()).toEqual({ sent: 1, stopped: false, failedItemIds: [] });
    const runs = sendsOf(10)[0]!.run;
    expect(runs.trigger).toEqual({ kind: 'order_status', statusId: 3, orderId: 5 });
    // The run names its recipient by hash and order, never by address (issue 41 item 3).
    expect(runs.recipient).toEqual({ hash: BUYER_HASH, row: { kind: 'order', orderId: 5 } });
    expect(JSON.stringify(runs)).not.toContain('@');

    const firstRuns = await Promise.all(ids.map(async (id) => (await temporal.client().workflow.getHandle(id).describe()).runId));
    await change(2);
    await eventually(async () => expect(recorded.filter((r) => r.effect === 'mail_sequence')).toHaveLength(2));
    // No second run was started (a started one is the latest run of the id at once), whatever the timing.
    expect(await Promise.all(ids.map(async (id) => (await temporal.client().workflow.getHandle(id).describe()).runId))).toEqual(firstRuns);
    expect(sendsOf(10)).toHaveLength(1);
    expect(sendsOf(11)).toHaveLength(1);
  });

  it('a result recorded before issue 41 item 3 (the address itself) still starts its runs as then: address in id and input', async () => {
    offsets.set(12, [0]);
    nextOrderSequences = [12];
    buyerAsRecordedBefore = true;
    try {
      await temporal.client().workflow.execute<typeof changeOrderStatus>('changeOrderStatus', { taskQueue, workflowId: `test/${randomUUID()}`, args: [{ shopId, orderId: 7, changeId: 4, statusId: 3 }] });
    } finally {
      buyerAsRecordedBefore = false;
    }
    const id = mailSequenceWorkflowId({ shopId, sequenceId: 12, recipient: 'buyer@example.com' });
    expect(await temporal.client().workflow.getHandle(id).result()).toEqual({ sent: 1, stopped: false, failedItemIds: [] });
    expect(sendsOf(12)[0]!.run).toMatchObject({ email: 'buyer@example.com' });
    expect(sendsOf(12)[0]!.run).not.toHaveProperty('recipient');
  });

  it('records skipped when no sequence starts', async () => {
    nextOrderSequences = [];
    recorded.length = 0;
    await temporal.client().workflow.execute<typeof changeOrderStatus>('changeOrderStatus', { taskQueue, workflowId: `test/${randomUUID()}`, args: [{ shopId, orderId: 6, changeId: 3, statusId: 4 }] });
    expect(recorded.find((r) => r.effect === 'mail_sequence')?.outcome.status).toBe('skipped');
  });
});
