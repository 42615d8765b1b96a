import type { EntityManager } from '@mikro-orm/postgresql';
import type * as workflows from '../../../workflows/index.ts';
import type { OutboxRecorder, RecordedStart } from './outbox.ts';

/** The workflows both services start (`app.workflows.shared`): a person's erasure in a platform or a shop. */
export function sharedWorkflowStarts(outbox: OutboxRecorder) {
  return {
    /**
     * A person's erasure (issue 29), recorded in the erasure request's transaction `em` (sent by
     * `startRecorded` after the commit): started, or signalled when it runs already (the run goes
     * round once more), so concurrent requests make one run; a finished one may run again
     * (ALLOW_DUPLICATE), since the person may have come back. Sent twice, it only makes a running
     * erasure go round once more (it is idempotent).
     */
    erasePersonalData(em: EntityManager, ref: Parameters<typeof workflows.erasePersonalData>[0], workflowId: string): Promise<RecordedStart> {
      return outbox.record(em, 'erasePersonalData', workflowId, { kind: 'signalWithStart', args: [ref], signal: 'erasureRequested', signalArgs: [], allowDuplicate: true });
    },
  };
}
