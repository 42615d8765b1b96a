/**
 * What Temporal keeps of a person in a run (issue 41 item 3): its id and the arguments it was
 * started with, decoded from its history, and the ids the api derives from an address.
 */
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { Orm } from '../../db/orm.ts';
import { personalEmailHash } from '../../db/repositories/shared/personal-data/salt.ts';
import { mailSequenceWorkflowId } from '../../domain/shop/workflow-ids.ts';

/** The decoded arguments of the run's start event. */
export async function startArguments(client: Client, workflowId: string): Promise<unknown[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  if (!started) throw new Error(`${workflowId}: no start event`);
  return (started.input?.payloads ?? []).map((payload) => defaultPayloadConverter.fromPayload(payload));
}

/** Fails when the address (any letter case) is in the run's id or start arguments. */
export async function expectNoAddressIn(client: Client, workflowId: string, address: string): Promise<void> {
  const needle = address.trim().toLowerCase();
  if (workflowId.toLowerCase().includes(needle)) throw new Error(`the workflow id ${workflowId} names ${needle}`);
  const args = JSON.stringify(await startArguments(client, workflowId)).toLowerCase();
  if (args.includes(needle)) throw new Error(`the start arguments of ${workflowId} name ${needle}: ${args}`);
}

/** The run of a mail sequence for an address, as the api and workflows name it (by the address's keyed hash). */
export async function mailSequenceRunId(orm: Orm, p: { shopId: string; sequenceId: number; email: string }): Promise<string> {
  return mailSequenceWorkflowId({ ...p, recipient: await personalEmailHash(orm.em.fork(), p.email) });
}
