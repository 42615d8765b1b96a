/**
 * The repeated erasure of the personal-data e2e tests (issue 29): the same person erased again
 * changes nothing and reports the same, and tells the integrators nothing more.
 */
import type { Client } from '@temporalio/client';
import { expect } from 'vitest';
import type { Reply } from './http.ts';
import { eventually } from './stack.ts';
import { underPrefix, workflowsSettled } from './workflows-settled.ts';

export interface RepeatedErasure {
  /** The erase request (202). */
  erase(): Promise<Reply>;
  /** The erasure's status reply. */
  erasure(): Promise<Reply>;
  temporal: Client;
  /** The tenant's workflow id prefix (`platform/<id>/`, `shop/<id>/`). */
  tenantPrefix: string;
  /** How many erased-person announcements the webhook receiver has had. */
  announcements(): number;
}

/** Erases again; once the run has completed and the tenant's workflows are over, the counts are the first run's and one announcement stands. Returns the 202. */
export async function expectRepeatedErasureChangesNothing(r: RepeatedErasure): Promise<Reply> {
  const before = (await r.erasure()).body.data;
  // The first run marks the erasure completed just before it closes: a request in between only makes
  // that run go round again (signal with start), so this waits for it to close to see a run of its own.
  await workflowsSettled(r.temporal, underPrefix(r.tenantPrefix), { timeoutMs: 90_000 });
  const since = new Date();
  const again = await r.erase();
  expect(again.status).toBe(202);
  const after = await eventually(async () => {
    const res = await r.erasure();
    expect(res.body.data.status).toBe('completed');
    expect(res.body.data.requested_at > before.requested_at).toBe(true);
    return res.body.data;
  }, { timeoutMs: 90_000 });
  expect(after.counts).toEqual(before.counts);
  // The run is over, and so is every delivery it could have started: no second announcement.
  await workflowsSettled(r.temporal, underPrefix(r.tenantPrefix), { started: 1, since, timeoutMs: 90_000 });
  expect(r.announcements()).toBe(1);
  return again;
}
