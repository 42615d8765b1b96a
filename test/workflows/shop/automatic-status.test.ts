import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import type { Activities } from '../../../activities/index.ts';
import type { ApplyAutomaticStatusInput, PlannedAutomaticStatus, PlanAutomaticStatusesInput } from '../../../activities/shop/automatic-status.ts';
import { automaticStatusWorkflowId, orderStatusWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import type { automaticOrderStatus } from '../../../workflows/index.ts';
import { useFakeWorker } from '../../helpers/fake-worker.ts';
import { quietClearing } from '../../../scripts/histories/quiet-clearing.ts';
import { eventually, uniqueTaskQueue } from '../../helpers/stack.ts';

/**
 * The automatic status timers on the real server with fake activities: due instants milliseconds
 * away stand for the days and hours of production.
 */
const taskQueue = uniqueTaskQueue('shop-auto-status');
const shopId = `auto-${randomUUID().slice(0, 8)}`;

/** What the fakes answer, per order. */
const plans = new Map<number, PlannedAutomaticStatus[]>();
const applied = new Map<number, { changeId: number } | null>();
const planCalls: PlanAutomaticStatusesInput[] = [];
const applyCalls: { input: ApplyAutomaticStatusInput; at: number }[] = [];

// The other effects of the transitions have nothing to do here.
const fakeActivities: Partial<Activities> = {
  ...quietClearing,
  async planAutomaticStatuses(input) {
    planCalls.push(input);
    return plans.get(input.orderId) ?? [];
  },
  async applyAutomaticStatus(input) {
    applyCalls.push({ input, at: Date.now() });
    return applied.get(input.orderId) ?? null;
  },
};

const temporal = useFakeWorker(taskQueue, fakeActivities);
const started: string[] = [];
afterAll(async () => {
  // Transition workflows may wait on effects other features add later; none outlives the file.
  for (const id of started) await temporal.client().workflow.getHandle(id).terminate().catch((e) => (e instanceof WorkflowNotFoundError ? null : e));
});

const describeWorkflow = (workflowId: string) =>
  eventually(async () => {
    const d = await temporal.client().workflow.getHandle(workflowId).describe();
    started.push(workflowId);
    return d;
  }, { timeoutMs: 15_000 });

const due = (ms: number) => new Date(Date.now() + ms).toISOString();

describe('automaticOrderStatus', () => {
  it('waits until the due instant, then sets the status and runs the change through changeOrderStatus', async () => {
    const orderId = 101;
    applied.set(orderId, { changeId: 9001 });
    const dueAt = due(800);
    const result = await temporal.client().workflow.execute<typeof automaticOrderStatus>('automaticOrderStatus', {
      taskQueue,
      workflowId: `test/${randomUUID()}`,
      args: [{ shopId, orderId, fromStatusId: 2, expectedChangeId: 40, toStatusId: 6, dueAt }],
    });
    expect(result).toEqual({ changeId: 9001 });
    const call = applyCalls.find((c) => c.input.orderId === orderId)!;
    expect(call.input).toEqual({ shopId, orderId, fromStatusId: 2, expectedChangeId: 40, toStatusId: 6 });
    expect(call.at).toBeGreaterThanOrEqual(Date.parse(dueAt) - 50);
    const child = await describeWorkflow(orderStatusWorkflowId({ shopId, orderId, changeId: 9001 }));
    expect(child.type).toBe('changeOrderStatus');
  });

  it('ends without a change when the order moved on meanwhile (the timer is obsolete)', async () => {
    const orderId = 102;
    applied.set(orderId, null);
    const result = await temporal.client().workflow.execute<typeof automaticOrderStatus>('automaticOrderStatus', {
      taskQueue,
      workflowId: `test/${randomUUID()}`,
      args: [{ shopId, orderId, fromStatusId: 2, expectedChangeId: null, toStatusId: 6, dueAt: due(50) }],
    });
    expect(result).toEqual({ changeId: null });
    const ids: string[] = [];
    for await (const wf of temporal.client().workflow.list({ query: `WorkflowId STARTS_WITH "shop/${shopId}/order/${orderId}/"` })) ids.push(wf.workflowId);
    expect(ids).toEqual([]);
  });
});

describe('the timers a transition plans', () => {
  it('changeOrderStatus starts one timer per planned status, named after the change, and a repeat starts none twice', async () => {
    const orderId = 103;
    plans.set(orderId, [
      { fromStatusId: 3, expectedChangeId: 55, toStatusId: 7, dueAt: due(100) },
      { fromStatusId: 3, expectedChangeId: 55, toStatusId: 8, dueAt: due(100) },
    ]);
    applied.set(orderId, null);
    const args = [{ shopId, orderId, changeId: 55, statusId: 3 }] as const;
    for (const run of [1, 2]) {
      const workflowId = `test/${randomUUID()}-${run}`;
      started.push(workflowId);
      await temporal.client().workflow.start('changeOrderStatus', { taskQueue, workflowId, args: [...args] });
    }
    for (const to of [7, 8]) {
      const timer = await describeWorkflow(automaticStatusWorkflowId({ shopId, orderId, source: 'status:55', toStatusId: to }));
      expect(timer.type).toBe('automaticOrderStatus');
      expect(timer.workflowId).toBe(`shop/${shopId}/order/${orderId}/auto-status/status/55/to/${to}`);
    }
    await eventually(async () => expect(applyCalls.filter((c) => c.input.orderId === orderId).map((c) => c.input.toStatusId).sort()).toEqual([7, 8]));
    expect(planCalls.filter((c) => c.orderId === orderId)).toEqual([
      { shopId, orderId, source: 'status:55' },
      { shopId, orderId, source: 'status:55' },
    ]);
  });

  it('clearOrder plans the timers of the paid status under the clearing', async () => {
    const orderId = 104;
    plans.set(orderId, [{ fromStatusId: 2, expectedChangeId: null, toStatusId: 9, dueAt: due(60_000) }]);
    const workflowId = `test/${randomUUID()}`;
    started.push(workflowId);
    await temporal.client().workflow.start('clearOrder', { taskQueue, workflowId, args: [{ shopId, orderId }] });
    const timer = await describeWorkflow(automaticStatusWorkflowId({ shopId, orderId, source: 'clear', toStatusId: 9 }));
    expect(timer.workflowId).toBe(`shop/${shopId}/order/${orderId}/auto-status/clear/to/9`);
    expect(timer.status.name).toBe('RUNNING');
  });
});
