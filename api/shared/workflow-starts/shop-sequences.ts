import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { FastifyBaseLogger } from 'fastify';
import { mailSequenceRunsPrefix } from '../../../domain/shop/workflow-ids.ts';

/**
 * The runs of a deleted mail sequence: each one still running is cancelled, so its planned
 * messages are never sent and it ends now rather than at its next message. Best effort after the
 * deletion is committed: a run the list misses (visibility lags a start by a moment) or that
 * Temporal could not be told about stops at its next message anyway, whose send finds the
 * sequence gone (activities/shop/mail-sequences.ts), so a failure here is logged, not answered.
 */
export function sequenceWorkflows(client: Client) {
  return {
    async endMailSequenceRuns(log: FastifyBaseLogger, ref: { shopId: string; sequenceId: number }): Promise<number> {
      const prefix = mailSequenceRunsPrefix(ref);
      let cancelled = 0;
      try {
        for await (const run of client.workflow.list({ query: `WorkflowId STARTS_WITH "${prefix}" AND ExecutionStatus = "Running"` })) {
          try {
            await client.workflow.getHandle(run.workflowId, run.runId).cancel();
            cancelled += 1;
          } catch (error) {
            if (!(error instanceof WorkflowNotFoundError)) throw error;
          }
        }
      } catch (error) {
        log.error({ err: error, prefix }, 'the runs of a deleted mail sequence could not all be cancelled; each stops at its next message');
      }
      return cancelled;
    },
  };
}
