/**
 * An app whose link to Temporal runs through a TCP switch the test cuts (`link`), beside the test's
 * own client (`direct`) that sees what Temporal really holds. No worker serves the app's task
 * queue: the workflows it starts stay as started, and `close` terminates those `started` names.
 */
import { Client, Connection } from '@temporalio/client';
import { inject } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { ADMIN_TOKEN, connectTemporal, openTestOrm, uniqueTaskQueue } from './stack.ts';
import { tcpSwitch } from './tcp-switch.ts';

export async function appBehindTemporalSwitch(name: string) {
  const link = await tcpSwitch(inject('temporalAddress'));
  const viaLink = new Client({ connection: await Connection.connect({ address: link.address }), namespace: 'default' });
  const direct = await connectTemporal();
  const orm = await openTestOrm();
  const app = await buildApp({
    orm,
    temporal: viaLink,
    taskQueue: uniqueTaskQueue(name),
    adminToken: ADMIN_TOKEN,
    rateLimits: { enabled: false },
    workflowOutbox: { deadlineMs: 1000, retryAfterSeconds: 1, intervalMs: 200 },
  });
  const started = new Set<string>();
  return {
    link,
    direct,
    orm,
    app,
    /** Workflow ids the test started: ended by `close`. */
    started,
    async close() {
      link.restore();
      await Promise.all([...started].map((id) => direct.workflow.getHandle(id).terminate('test done').catch(() => undefined)));
      await app.close();
      await viaLink.connection.close();
      await direct.connection.close();
      await link.close();
      await orm.close();
    },
  };
}
