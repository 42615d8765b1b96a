/**
 * Mail delivery activities on the real database against local provider stand-ins: which transport
 * sends, what arrives, what the mail log records, retries and idempotency by mail id.
 */
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities, type Activities } from '../../../activities/index.ts';
import { ensureParticipantIn, inviteParticipant } from '../../../activities/access/participants.ts';
import { tenantEm } from '../../../db/repositories/shared/tenant-em.ts';
import { mailDelivery } from '../../../activities/mail/delivery.ts';
import { operationMailId } from '../../../activities/mail/render.ts';
import { invitationDedupeKey } from '../../../db/repositories/access/onboarding.ts';
import type { GrantStep } from '../../../activities/access/grants.ts';
import { checkProvider } from '../../../adapters/mail/provider-check.ts';
import { DEFAULT_MAIL_ENDPOINTS } from '../../../domain/shared/mail-endpoints.ts';
import { MAIL_CLAIM_LEASE_MS } from '../../../domain/shared/mail-delivery.ts';
import { configure, createConfigurationKey, type TestConfigurationKey } from '../../helpers/configuration.ts';
import { createCourse, createPlatform, operator, uniqueEmail, type TestPlatform } from '../../helpers/fixtures.ts';
import { PROVIDER_A_KEYS, PROVIDER_B_USER, PROVIDER_C_KEYS, startProviderStandIns, startSmtpStandIn, type ProviderStandIns } from '../../helpers/mail-providers.ts';
import { PLATFORM_URL_TEMPLATE, eventually, startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let providers: ProviderStandIns;
let activities: Activities;

beforeAll(async () => {
  providers = await startProviderStandIns();
  stack = await startTestApp('mail-delivery-activities', { mailEndpoints: providers.endpoints });
  activities = createActivities({ orm: stack.orm, platformUrlTemplate: PLATFORM_URL_TEMPLATE, mailEndpoints: providers.endpoints, secretsKey: stack.app.secretsKey });
});
afterAll(async () => {
  await stack?.close();
  await providers?.close();
});

const SETTINGS = {
  provider_a: { active: true, email: 'a@academy.test', ...PROVIDER_A_KEYS },
  provider_b: { active: true, region: 'eu-west-1', email: 'b@academy.test', display_name: 'Academy B', ...PROVIDER_B_USER },
  provider_c: { active: true, email: 'c@academy.test', ...PROVIDER_C_KEYS },
};
type ProviderName = keyof typeof SETTINGS;

async function platformWith(...active: ProviderName[]): Promise<{ platform: TestPlatform; key: TestConfigurationKey }> {
  const platform = await createPlatform(stack.app, 'Mail academy');
  const key = await createConfigurationKey(stack.app, platform.id);
  for (const name of active) {
    const res = await configure(stack.app, 'PUT', `/email_delivery/${name}`, key.token, SETTINGS[name]);
    expect(res.statusCode, res.body).toBe(200);
  }
  return { platform, key };
}

/**
 * A new participant's invitation, recorded as pending by the grant's own functions in one transaction (the grant
 * step itself also makes the first attempt): the mail id the workflow would deliver.
 */
async function invitation(platformId: string, opts: { claimForSending?: boolean } = {}) {
  const email = uniqueEmail('invited');
  const course = await createCourse(stack.app, platformId);
  const { participantId, mailId, claimed } = await tenantEm(stack.orm, platformId).transactional(async (tx) => {
    const { participantId } = await ensureParticipantIn(tx, { platformId, email });
    const invited = await inviteParticipant(tx, { platformUrlTemplate: PLATFORM_URL_TEMPLATE, now: () => new Date() }, { platformId, participantId, courseId: course.id }, opts);
    return { participantId, mailId: invited.mailId, claimed: invited.claimed };
  });
  expect(mailId).toEqual(expect.any(String));
  return { email, participantId, mailId: mailId!, courseId: course.id, claimed };
}

async function mailRow(mailId: string) {
  const rows: { status: string; provider: string | null; attempts: number; last_error: string | null; provider_message_id: string | null; delivered_at: Date | null }[] =
    await stack.orm.em.fork().getConnection().execute('select status, provider, attempts, last_error, provider_message_id, delivered_at from mail_log where id = ?', [mailId]);
  return rows[0]!;
}

describe('a grant records the invitation and makes its first attempt, deliverMail retries it', () => {
  it('sends the invitation once from the step; a retry of that grant attempts it again only while undelivered, another grant never does', async () => {
    const { platform } = await platformWith('provider_a');
    const course = await createCourse(stack.app, platform.id);
    const email = uniqueEmail('invited');
    // Both runs are attempts of one activity of one workflow run: the same operation.
    const attempt = new MockActivityEnvironment({ activityId: '1', workflowExecution: { workflowId: `test/${email}`, runId: randomUUID() } });
    const input = { platformId: platform.id, courseId: course.id, email, accessLevel: 0 as const, seq: 1 };
    const first: GrantStep = await attempt.run(activities.grantCourse, input);
    expect(first).toMatchObject({ invitationSent: true, invitationDelivery: 'sent' });
    const mailId = first.invitationMailId!;
    expect(await mailRow(mailId)).toMatchObject({ status: 'sent', provider: 'provider_a', attempts: 1 });
    expect(providers.a.sent.filter((call) => call.body.to[0].email === email)).toHaveLength(1);
    // Delivered: a retry of the step has nothing to hand on.
    expect(await attempt.run(activities.grantCourse, input)).toMatchObject({ invitationSent: false, invitationMailId: null, invitationDelivery: null });

    // Undelivered (its last attempt failed): a retry of the step attempts it again, another grant never does.
    await stack.orm.em.fork().getConnection().execute(`update mail_log set status = 'failed' where id = ?`, [mailId]);
    expect(await activities.grantCourse({ ...input, seq: 2 })).toMatchObject({ invitationSent: false, invitationMailId: null, invitationDelivery: null });
    expect(await attempt.run(activities.grantCourse, input)).toMatchObject({ invitationSent: false, invitationMailId: mailId, invitationDelivery: 'sent' });
    expect(await mailRow(mailId)).toMatchObject({ status: 'sent', provider: 'provider_a' });
  });

  it('invites a participant the platform knew but never invited; should the step\'s attempt never come, a retry of that grant hands the invitation on and it goes out once, another grant never does', async () => {
    const { platform } = await platformWith('provider_a');
    const course = await createCourse(stack.app, platform.id);
    const email = uniqueEmail('known');
    await tenantEm(stack.orm, platform.id).transactional((tx) => ensureParticipantIn(tx, { platformId: platform.id, email }));
    const attempt = new MockActivityEnvironment({ activityId: '1', workflowExecution: { workflowId: `test/${email}`, runId: randomUUID() } });
    const input = { platformId: platform.id, courseId: course.id, email, accessLevel: 0 as const, seq: 1 };
    providers.a.failNext(1);
    const first: GrantStep = await attempt.run(activities.grantCourse, input);
    expect(first).toMatchObject({ created: false, invitationSent: true, invitationDelivery: 'retry' });
    const mailId = first.invitationMailId!;
    // As the worker dying after the step's commit leaves it: claimed for an attempt that never came, the claim lapsed.
    await stack.orm.em
      .fork()
      .getConnection()
      .execute(`update mail_log set status = 'sending', attempts = 0, provider = null, last_error = null, claimed_at = now() - ? * interval '1 millisecond' where id = ?`, [MAIL_CLAIM_LEASE_MS + 1_000, mailId]);

    expect(await activities.grantCourse({ ...input, seq: 2 })).toMatchObject({ invitationSent: false, invitationMailId: null, invitationDelivery: null });
    expect(await attempt.run(activities.grantCourse, input)).toMatchObject({ created: false, invitationSent: false, invitationMailId: mailId, invitationDelivery: 'sent' });
    expect(await mailRow(mailId)).toMatchObject({ status: 'sent', provider: 'provider_a' });
    expect(providers.a.sent.filter((call) => call.body.to[0].email === email)).toHaveLength(1);
    // Delivered: a further retry has nothing to hand on.
    expect(await attempt.run(activities.grantCourse, input)).toMatchObject({ invitationMailId: null, invitationDelivery: null });
  });

  it('hands the invitation on from an attempt that waited for an overlapping attempt\'s lock and commit, which its upsert\'s snapshot does not show', async () => {
    const { platform } = await platformWith('provider_a');
    const course = await createCourse(stack.app, platform.id);
    const email = uniqueEmail('overlap');
    const workflowExecution = { workflowId: `test/${email}`, runId: randomUUID() };
    const operationKey = `${workflowExecution.workflowId}/${workflowExecution.runId}/1`;
    const db = stack.orm.em.fork().getConnection();
    // The first attempt's transaction: the participant created and its invitation recorded, claimed, not committed yet.
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    let first!: Promise<string>;
    const recorded = new Promise<void>((recordedNow) => {
      first = tenantEm(stack.orm, platform.id).transactional(async (tx) => {
        const { participantId } = await ensureParticipantIn(tx, { platformId: platform.id, email }, `${operationKey}/participant`);
        const newMailId = operationMailId(operationKey, invitationDedupeKey(participantId));
        const invited = await inviteParticipant(tx, { platformUrlTemplate: PLATFORM_URL_TEMPLATE, now: () => new Date() }, { platformId: platform.id, participantId, courseId: course.id }, { claimForSending: true, newMailId });
        recordedNow();
        await committed;
        return invited.mailId!;
      });
    });
    await recorded;
    // The retry starts while the first holds the participant's row, and waits for it.
    const retry = new MockActivityEnvironment({ activityId: '1', workflowExecution }).run(activities.grantCourse, { platformId: platform.id, courseId: course.id, email, accessLevel: 0 as const, seq: 1 });
    await eventually(async () => {
      const [waiting] = await db.execute<{ n: number }[]>(`select count(*)::int as n from pg_locks where not granted and locktype = 'transactionid'`);
      expect(waiting?.n).toBeGreaterThan(0);
    });
    commit();
    const mailId = await first;
    // Handed on: should the first attempt's own send never come, the workflow's delivery sends it.
    expect(await retry).toMatchObject({ created: true, invitationSent: false, invitationMailId: mailId });
  });

  it('answers `retry` when the step\'s attempt fails for now, recorded as a failed attempt for the delivery workflow to retry', async () => {
    const { platform } = await platformWith('provider_c');
    const course = await createCourse(stack.app, platform.id);
    providers.c.failNext(1);
    const step = await activities.grantCourse({ platformId: platform.id, courseId: course.id, email: uniqueEmail('invited'), accessLevel: 0, seq: 1 });
    expect(step).toMatchObject({ invitationSent: true, invitationDelivery: 'retry', outcome: 'applied' });
    expect(await mailRow(step.invitationMailId!)).toMatchObject({ status: 'failed', attempts: 1, last_error: expect.stringContaining('503') });
    expect(await activities.deliverMail({ platformId: platform.id, mailId: step.invitationMailId! })).toEqual({ status: 'sent', provider: 'provider_c' });
  });

  it('answers `refused` when the provider refuses the message as such: nothing to retry', async () => {
    const { platform } = await platformWith('provider_c');
    const course = await createCourse(stack.app, platform.id);
    providers.c.failNext(1, 422);
    const step = await activities.grantCourse({ platformId: platform.id, courseId: course.id, email: uniqueEmail('invited'), accessLevel: 0, seq: 1 });
    expect(step).toMatchObject({ invitationSent: true, invitationDelivery: 'refused', outcome: 'applied' });
    expect(await mailRow(step.invitationMailId!)).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('records a new invitation claimed for the step\'s attempt: should that attempt never come (the worker died after the commit), the claim lapses and the delivery sends it once', async () => {
    const { platform } = await platformWith('provider_a');
    const { mailId, email } = await invitation(platform.id, { claimForSending: true });
    expect(await mailRow(mailId)).toMatchObject({ status: 'sending', attempts: 0 });
    // A retry of the step while the claim holds hands the mail on without sending it.
    const { attemptMailOnce } = mailDelivery({ orm: stack.orm, platformUrlTemplate: PLATFORM_URL_TEMPLATE, mailEndpoints: providers.endpoints, secretsKey: stack.app.secretsKey });
    expect(await attemptMailOnce(platform.id, mailId)).toBe('retry');
    expect(providers.a.sent.some((call) => call.body.to[0].email === email)).toBe(false);
    // The lease passed: the delivery workflow's activity takes the mail over.
    await stack.orm.em.fork().getConnection().execute(`update mail_log set claimed_at = now() - ? * interval '1 millisecond' where id = ?`, [MAIL_CLAIM_LEASE_MS + 1_000, mailId]);
    expect(await activities.deliverMail({ platformId: platform.id, mailId })).toEqual({ status: 'sent', provider: 'provider_a' });
    expect(await mailRow(mailId)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(providers.a.sent.filter((call) => call.body.to[0].email === email)).toHaveLength(1);
  });

  it('takes a claim held past half its lease again before sending (a slow commit), so the step and a retry that took the mail over never both send it', async () => {
    const { platform } = await platformWith('provider_a');
    const { mailId, email, claimed } = await invitation(platform.id, { claimForSending: true });
    const { attemptClaimedOnce, attemptMailOnce } = mailDelivery({ orm: stack.orm, platformUrlTemplate: PLATFORM_URL_TEMPLATE, mailEndpoints: providers.endpoints, secretsKey: stack.app.secretsKey });
    const heldLong = { ...claimed!, atMs: performance.now() - MAIL_CLAIM_LEASE_MS };
    // Still claimed in the log: handed on, not sent.
    expect(await attemptClaimedOnce(platform.id, heldLong)).toBe('retry');
    expect(providers.a.sent.some((call) => call.body.to[0].email === email)).toBe(false);
    // The claim lapsed and a retry of the step took the mail over and sent it: the slow attempt finds it sent.
    await stack.orm.em.fork().getConnection().execute(`update mail_log set claimed_at = now() - ? * interval '1 millisecond' where id = ?`, [MAIL_CLAIM_LEASE_MS + 1_000, mailId]);
    expect(await attemptMailOnce(platform.id, mailId)).toBe('sent');
    expect(await attemptClaimedOnce(platform.id, heldLong)).toBe('sent');
    expect(providers.a.sent.filter((call) => call.body.to[0].email === email)).toHaveLength(1);
    // A claim just taken is sent at once, without a claim of its own.
    const fresh = await invitation(platform.id, { claimForSending: true });
    expect(await attemptClaimedOnce(platform.id, fresh.claimed!)).toBe('sent');
    expect(await mailRow(fresh.mailId)).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('answers `retry` without waiting when another attempt holds the mail, `refused` for a mail not in the log', async () => {
    const { platform } = await platformWith('provider_a');
    const { mailId, email } = await invitation(platform.id);
    const { attemptMailOnce } = mailDelivery({ orm: stack.orm, platformUrlTemplate: PLATFORM_URL_TEMPLATE, mailEndpoints: providers.endpoints, secretsKey: stack.app.secretsKey });
    await stack.orm.em.fork().getConnection().execute(`update mail_log set status = 'sending', claimed_at = now() where id = ?`, [mailId]);
    expect(await attemptMailOnce(platform.id, mailId)).toBe('retry');
    expect(await mailRow(mailId)).toMatchObject({ status: 'sending', attempts: 0 });
    expect(providers.a.sent.some((call) => call.body.to[0].email === email)).toBe(false);
    expect(await attemptMailOnce(platform.id, randomUUID())).toBe('refused');
  });
});

describe('which transport sends', () => {
  it('the first active provider in the order a, b, c', async () => {
    const { platform } = await platformWith('provider_c', 'provider_a');
    const { email, mailId } = await invitation(platform.id);
    expect(await activities.deliverMail({ platformId: platform.id, mailId })).toEqual({ status: 'sent', provider: 'provider_a' });

    const sent = providers.a.sent.find((call) => call.body.to[0].email === email);
    expect(sent?.headers['idempotency-key']).toBe(mailId);
    expect(sent?.body).toMatchObject({ from: { email: 'a@academy.test' }, custom_id: mailId, headers: { 'Message-ID': `<${mailId}@academy.test>` } });
    expect(sent?.body.html_part).toMatch(/\/login\?invitation=[A-Za-z0-9_-]{32}/);
    expect(sent?.body.text_part).toMatch(/\/login\?invitation=[A-Za-z0-9_-]{32}/);
    expect(providers.c.sent.some((call) => call.body.recipients[0] === email)).toBe(false);
    expect(await mailRow(mailId)).toMatchObject({ status: 'sent', provider: 'provider_a', attempts: 1, last_error: null, provider_message_id: expect.stringMatching(/^msg-/) });
  });

  it('provider_b over SMTP with its credentials, from its address and display name', async () => {
    const { platform } = await platformWith('provider_b', 'provider_c');
    const { email, mailId } = await invitation(platform.id);
    expect(await activities.deliverMail({ platformId: platform.id, mailId })).toEqual({ status: 'sent', provider: 'provider_b' });

    const arrived = providers.b.received.find((m) => m.to.includes(email));
    expect(arrived).toMatchObject({ from: 'b@academy.test', user: PROVIDER_B_USER.smtp_username });
    expect(arrived?.headers['message-id']).toBe(`<${mailId}@academy.test>`);
    expect(arrived?.headers.from).toContain('Academy B');
    expect(arrived?.html).toMatch(/\/login\?invitation=[A-Za-z0-9_-]{32}/);
    expect(arrived?.text).toMatch(/\/login\?invitation=[A-Za-z0-9_-]{32}/);
  });

  it('provider_c with its application and authorization keys', async () => {
    const { platform } = await platformWith('provider_c');
    const { email, mailId } = await invitation(platform.id);
    expect(await activities.deliverMail({ platformId: platform.id, mailId })).toEqual({ status: 'sent', provider: 'provider_c' });
    const sent = providers.c.sent.find((call) => call.body.recipients[0] === email);
    expect(sent?.headers).toMatchObject({ 'x-application-key': PROVIDER_C_KEYS.application_key, authorization: `Bearer ${PROVIDER_C_KEYS.authorization_key}` });
    expect(sent?.body.subject).toEqual(expect.any(String));
  });

  it("the platform's SMTP relay when no provider is active", async () => {
    const { platform, key } = await platformWith('provider_c');
    expect((await configure(stack.app, 'PUT', '/email_delivery/provider_c', key.token, { active: false })).statusCode).toBe(200);
    const { email, mailId } = await invitation(platform.id);
    expect(await activities.deliverMail({ platformId: platform.id, mailId })).toEqual({ status: 'sent', provider: 'platform' });
    const arrived = providers.relay.received.find((m) => m.to.includes(email));
    expect(arrived?.from).toBe('platform@coursehub.test');
    expect(arrived?.html).toMatch(/\/login\?invitation=/);
  });

  it("the platform's default_email_sender is the relayed mail's sender", async () => {
    const { platform, key } = await platformWith();
    const sender = { name: 'Academy Team', email: 'team@academy.test' };
    expect((await configure(stack.app, 'PATCH', '/platform', key.token, { default_email_sender: sender })).statusCode).toBe(200);
    const { email, mailId } = await invitation(platform.id);
    expect(await activities.deliverMail({ platformId: platform.id, mailId })).toEqual({ status: 'sent', provider: 'platform' });
    const arrived = providers.relay.received.find((m) => m.to.includes(email));
    expect(arrived?.headers.from).toBe('Academy Team <team@academy.test>');
  });

  it('without DEFAULT_SMTP_URL the mail is recorded only', async () => {
    const endpoints = { ...providers.endpoints, defaultSmtpUrl: undefined };
    const recordOnly = createActivities({ orm: stack.orm, platformUrlTemplate: PLATFORM_URL_TEMPLATE, mailEndpoints: endpoints, secretsKey: stack.app.secretsKey });
    const { platform } = await platformWith();
    const relayed = providers.relay.received.length;
    const { mailId } = await invitation(platform.id);
    expect(await recordOnly.deliverMail({ platformId: platform.id, mailId })).toEqual({ status: 'recorded', provider: 'platform' });
    expect(await mailRow(mailId)).toMatchObject({ status: 'recorded', provider: 'platform', delivered_at: null });
    expect(providers.relay.received.length).toBe(relayed);
  });
});

describe("a sandbox twin's mail never reaches a real recipient", () => {
  /** A platform sending through provider_a, its twin with provider_a saved too (the configuration calls work there). */
  async function twinWithProvider(): Promise<string> {
    const { platform } = await platformWith('provider_a');
    const res = await stack.app.inject({ method: 'POST', url: `/admin/v1/platforms/${platform.id}/sandbox`, headers: operator });
    expect(res.statusCode, res.body).toBe(201);
    const twinId: string = res.json().data.id;
    const key = await createConfigurationKey(stack.app, twinId);
    const saved = await configure(stack.app, 'PUT', '/email_delivery/provider_a', key.token, SETTINGS.provider_a);
    expect(saved.statusCode, saved.body).toBe(200);
    return twinId;
  }
  const reached = (email: string) => [providers.a.sent.some((call) => call.body.to[0].email === email), providers.relay.received.some((m) => m.to.includes(email))];

  it('is recorded only without SANDBOX_SMTP_URL, whatever provider it saved (and DEFAULT_SMTP_URL is not used either)', async () => {
    const twinId = await twinWithProvider();
    const { email, mailId } = await invitation(twinId);
    expect(await activities.deliverMail({ platformId: twinId, mailId })).toEqual({ status: 'recorded', provider: 'platform' });
    expect(await mailRow(mailId)).toMatchObject({ status: 'recorded', provider: 'platform', delivered_at: null });
    expect(reached(email)).toEqual([false, false]);
  });

  it('goes to the mail catcher of SANDBOX_SMTP_URL', async () => {
    const catcher = await startSmtpStandIn();
    try {
      const endpoints = { ...providers.endpoints, sandboxSmtpUrl: `smtp://127.0.0.1:${catcher.port}?ignoreTLS=true` };
      const acts = createActivities({ orm: stack.orm, platformUrlTemplate: PLATFORM_URL_TEMPLATE, mailEndpoints: endpoints, secretsKey: stack.app.secretsKey });
      const twinId = await twinWithProvider();
      const { email, mailId } = await invitation(twinId);
      expect(await acts.deliverMail({ platformId: twinId, mailId })).toEqual({ status: 'sent', provider: 'platform' });
      const arrived = catcher.received.find((m) => m.to.includes(email));
      expect(arrived?.html).toMatch(/\/login\?invitation=/);
      expect(reached(email)).toEqual([false, false]);
    } finally {
      await catcher.close();
    }
  });
});

describe('failures and retries', () => {
  it('records each failed attempt and rethrows it for a retry, then succeeds', async () => {
    const { platform } = await platformWith('provider_c');
    const { email, mailId } = await invitation(platform.id);
    providers.c.failNext(2);

    for (const attempt of [1, 2]) {
      const error = await activities.deliverMail({ platformId: platform.id, mailId }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApplicationFailure);
      expect((error as ApplicationFailure).nonRetryable).toBe(false);
      expect(await mailRow(mailId)).toMatchObject({ status: 'failed', provider: 'provider_c', attempts: attempt, last_error: expect.stringContaining('503') });
    }
    expect(await activities.deliverMail({ platformId: platform.id, mailId })).toEqual({ status: 'sent', provider: 'provider_c' });
    expect(await mailRow(mailId)).toMatchObject({ status: 'sent', attempts: 3, last_error: null });
    expect(providers.c.sent.filter((call) => call.body.recipients[0] === email)).toHaveLength(1);
  });

  it('does not retry a message the provider refuses as such', async () => {
    const { platform } = await platformWith('provider_c');
    const { mailId } = await invitation(platform.id);
    providers.c.failNext(1, 422);
    const error = await activities.deliverMail({ platformId: platform.id, mailId }).catch((e: unknown) => e);
    expect((error as ApplicationFailure).nonRetryable).toBe(true);
    expect(await mailRow(mailId)).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('retries an SMTP 4xx', async () => {
    const { platform } = await platformWith('provider_b');
    const { mailId } = await invitation(platform.id);
    providers.b.failNext(1);
    const error = await activities.deliverMail({ platformId: platform.id, mailId }).catch((e: unknown) => e);
    expect((error as ApplicationFailure).nonRetryable).toBe(false);
    expect(await mailRow(mailId)).toMatchObject({ status: 'failed', last_error: expect.stringContaining('451') });
    expect(await activities.deliverMail({ platformId: platform.id, mailId })).toEqual({ status: 'sent', provider: 'provider_b' });
  });
});

describe('provider secrets the worker cannot open', () => {
  it('records why and does not retry when SECRETS_KEY differs from the one the provider was saved with', async () => {
    const otherKey = createActivities({ orm: stack.orm, platformUrlTemplate: PLATFORM_URL_TEMPLATE, mailEndpoints: providers.endpoints, secretsKey: randomBytes(32) });
    const { platform } = await platformWith('provider_c');
    const { email, mailId } = await invitation(platform.id);
    const error = await otherKey.deliverMail({ platformId: platform.id, mailId }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect(error).toMatchObject({ nonRetryable: true, type: 'MailDeliveryRefused' });
    expect(await mailRow(mailId)).toMatchObject({
      status: 'failed',
      provider: 'provider_c',
      attempts: 1,
      last_error: 'provider secrets cannot be opened with this SECRETS_KEY; save the provider again',
      delivered_at: null,
    });
    expect(providers.c.sent.some((call) => call.body.recipients[0] === email)).toBe(false);
  });
});

describe('idempotency by mail id', () => {
  it('delivers a mail once, however often and however concurrently it is handed over', async () => {
    const { platform } = await platformWith('provider_a');
    const { email, mailId } = await invitation(platform.id);
    const outcomes = await Promise.all([1, 2, 3].map(() => activities.deliverMail({ platformId: platform.id, mailId })));
    expect(outcomes).toEqual([1, 2, 3].map(() => ({ status: 'sent', provider: 'provider_a' })));
    expect(await activities.deliverMail({ platformId: platform.id, mailId })).toEqual({ status: 'sent', provider: 'provider_a' });
    expect(providers.a.sent.filter((call) => call.body.to[0].email === email)).toHaveLength(1);
    expect((await mailRow(mailId)).attempts).toBe(1);
  });
});

describe('checks on save', () => {
  const settings = { provider: 'provider_a' as const, fields: { email: 'a@academy.test' }, secrets: PROVIDER_A_KEYS };
  const context = { mailId: '00000000-0000-4000-8000-000000000000', platformTitle: 'Academy' };

  it('an unreachable provider_a fails the check', async () => {
    const result = await checkProvider(settings, { ...providers.endpoints, providerAApiUrl: 'http://127.0.0.1:9/v1', timeoutMs: 2_000 }, context);
    expect(result).toEqual({ ok: false, errors: { app_key: [expect.stringContaining('could not be checked')], secret_key: [expect.any(String)] } });
  });

  it('a provider whose endpoint is not configured fails the check, naming the variable', async () => {
    const result = await checkProvider(settings, DEFAULT_MAIL_ENDPOINTS, context);
    expect(JSON.stringify(result)).toContain('PROVIDER_A_API_URL');
    expect(result.ok).toBe(false);
  });
});
