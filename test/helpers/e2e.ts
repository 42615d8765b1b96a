/** The whole stack for end-to-end tests: the API listening on a port and a worker with real activities. */
import { expect } from 'vitest';
import { createActivities } from '../../activities/index.ts';
import type { IntegrationEndpoints } from '../../adapters/endpoints.ts';
import { parseCidrList } from '../../domain/shared/ip-ranges.ts';
import { DEFAULT_MAIL_ENDPOINTS, type MailEndpoints } from '../../domain/shared/mail-endpoints.ts';
import { startMailCatcher, type MailCatcher } from '../../scripts/stack/mail-catcher.ts';
import { findFreePort } from '../../scripts/stack/lifecycle.ts';
import { httpClient } from './http.ts';
import { eventually, PLATFORM_URL_TEMPLATE, startTestApp, startTestWorker, type TestStack } from './stack.ts';
import { loopbackOnlyTransport, startWebhookReceiver } from './webhook-receiver.ts';

export async function startEndToEnd(name: string, { mailEndpoints, integrationEndpoints }: { mailEndpoints?: MailEndpoints; integrationEndpoints?: IntegrationEndpoints } = {}) {
  // The API's address is its PUBLIC_URL (as under npm start): links in mails and replies open here.
  const port = await findFreePort(0);
  const publicUrl = `http://127.0.0.1:${port}`;
  const stack: TestStack = await startTestApp(name, { mailEndpoints, publicUrl });
  const worker = await startTestWorker({ taskQueue: stack.taskQueue, orm: stack.orm, mailEndpoints, integrationEndpoints, publicUrl });
  const baseUrl = await stack.app.listen({ port, host: '127.0.0.1' });
  const http = httpClient(baseUrl);

  /** The operator's view of a participant once `check` holds for it. */
  async function participantWhen(platformId: string, email: string, check: (data: any) => void) {
    return eventually(async () => {
      const res = await http('GET', `/admin/v1/platforms/${platformId}/participants?email=${encodeURIComponent(email)}`, { operator: true });
      expect(res.status).toBe(200);
      check(res.body.data);
      return res.body.data;
    });
  }

  async function events(platformId: string, type?: string): Promise<{ id: string; type: string; payload: any }[]> {
    return stack.orm.em.fork().getConnection().execute(
      `select id, type, payload from domain_events where platform_id = ? ${type ? 'and type = ?' : ''} order by occurred_at, id`,
      type ? [platformId, type] : [platformId],
    );
  }

  return {
    stack,
    baseUrl,
    http,
    participantWhen,
    events,
    async close() {
      await worker.stop();
      await stack.close();
    },
  };
}

export type EndToEnd = Awaited<ReturnType<typeof startEndToEnd>>;

/**
 * The stack as `npm start` runs it for mail: MailDev (scripts/stack/mail-catcher.ts) as every
 * platform's and shop's default SMTP server, read back through its REST API (helpers/mail-catcher.ts).
 * On a fresh machine the first start installs MailDev with npm (about a minute, more under load).
 */
export async function startEndToEndWithMailCatcher(name: string): Promise<{ e2e: EndToEnd; catcher: MailCatcher; close(): Promise<void> }> {
  const catcher = await startMailCatcher({ log: () => undefined });
  const e2e = await startEndToEnd(name, { mailEndpoints: { ...DEFAULT_MAIL_ENDPOINTS, defaultSmtpUrl: catcher.smtpUrl } }).catch(async (error: unknown) => {
    await catcher.stop();
    throw error;
  });
  return {
    e2e,
    catcher,
    async close() {
      await e2e.close();
      await catcher.stop();
    },
  };
}

/**
 * The stack for webhook end-to-end tests: the API listening, a receiver on loopback, and a worker
 * whose webhook activities may reach 127.0.0.1 only (allowlist and the guard's pinned transport),
 * retrying on `retrySchedule` (ms).
 */
export async function startWebhookEndToEnd(name: string, retrySchedule: number[]) {
  const stack = await startTestApp(name);
  const receiver = await startWebhookReceiver();
  const guard = loopbackOnlyTransport();
  const activities = createActivities({
    orm: stack.orm,
    platformUrlTemplate: PLATFORM_URL_TEMPLATE,
    webhooks: { allowlist: parseCidrList('127.0.0.1/32'), retrySchedule, timeoutMs: 10_000, transport: guard.transport },
  });
  const worker = await startTestWorker({ taskQueue: stack.taskQueue, activities });
  const http = httpClient(await stack.app.listen({ port: 0, host: '127.0.0.1' }));
  return {
    stack,
    receiver,
    guard,
    http,
    async close() {
      await worker.stop();
      await receiver.close();
      await stack.close();
    },
  };
}
export type WebhookEndToEnd = Awaited<ReturnType<typeof startWebhookEndToEnd>>;
