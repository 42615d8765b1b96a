/**
 * Mail goes out for real: the API listening, a worker with the real activities, and local
 * stand-ins of the providers. A platform chooses its provider through the configuration
 * interface; a grant's invitation arrives there, retried when the provider fails for a while.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfigurationKey, type TestConfigurationKey } from '../../helpers/configuration.ts';
import { startEndToEnd, type EndToEnd } from '../../helpers/e2e.ts';
import { createCourse, createPlatform, uniqueEmail, type TestCourse, type TestPlatform } from '../../helpers/fixtures.ts';
import { PROVIDER_A_KEYS, PROVIDER_B_USER, SIMULATOR, startProviderStandIns, type ProviderStandIns } from '../../helpers/mail-providers.ts';
import { eventually } from '../../helpers/stack.ts';

let e2e: EndToEnd;
let providers: ProviderStandIns;
let platform: TestPlatform;
let course: TestCourse;
let key: TestConfigurationKey;

beforeAll(async () => {
  providers = await startProviderStandIns();
  e2e = await startEndToEnd('e2e-email-delivery', { mailEndpoints: providers.endpoints });
  platform = await createPlatform(e2e.stack.app, 'Delivered academy');
  course = await createCourse(e2e.stack.app, platform.id);
  key = await createConfigurationKey(e2e.stack.app, platform.id, ['read', 'write_config']);
});
afterAll(async () => {
  await e2e?.close();
  await providers?.close();
});

const configureProvider = async (name: string, body: unknown) => {
  const res = await e2e.http('PUT', `/api/v1/configuration/email_delivery/${name}`, { key: key.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

async function grantNewParticipant(label: string): Promise<string> {
  const email = uniqueEmail(label);
  const res = await e2e.http('POST', '/api/courses/subscribe', { key: platform.apiKey, body: { subscriptions: { course_id: course.id, email, name: 'Ann Smith' } } });
  expect(res.status).toBe(200);
  return email;
}

/** The operator's mail log entry for `email` once `check` holds for it. */
async function loggedMail(email: string, check: (mail: any) => void) {
  return eventually(async () => {
    const res = await e2e.http('GET', `/admin/v1/platforms/${platform.id}/emails?to=${encodeURIComponent(email)}`, { operator: true });
    expect(res.body.data).toHaveLength(1);
    check(res.body.data[0]);
    return res.body.data[0];
  });
}

const LOGIN_LINK = /\/login\?invitation=[A-Za-z0-9_-]{32}/;

describe('mail delivery end to end', () => {
  it('with no active provider, invitations go through the platform default transport', async () => {
    const email = await grantNewParticipant('default');
    const arrived = await eventually(async () => {
      const found = providers.relay.received.find((m) => m.to.includes(email));
      expect(found).toBeDefined();
      return found!;
    });
    expect(arrived.html).toMatch(LOGIN_LINK);
    await loggedMail(email, (mail) => expect(mail).toMatchObject({ template: 'user_invitation', provider: 'platform', status: 'sent' }));
  });

  it('an invitation goes out through the active provider (provider_b, SMTP) with the login link', async () => {
    const before = providers.b.received.length;
    await configureProvider('provider_b', { active: true, region: 'eu-central-1', email: 'academy@delivered.test', display_name: 'Delivered', ...PROVIDER_B_USER });
    expect(providers.b.received.slice(before).map((m) => m.to)).toEqual([[SIMULATOR]]);

    const email = await grantNewParticipant('via-b');
    const arrived = await eventually(async () => {
      const found = providers.b.received.find((m) => m.to.includes(email));
      expect(found).toBeDefined();
      return found!;
    });
    expect(arrived).toMatchObject({ from: 'academy@delivered.test', user: PROVIDER_B_USER.smtp_username });
    expect(arrived.html).toMatch(new RegExp(`https://${platform.subdomain}\\.test\\.local/login\\?invitation=`));
    expect(arrived.text).toMatch(LOGIN_LINK);

    const logged = await loggedMail(email, (mail) => expect(mail).toMatchObject({ provider: 'provider_b', status: 'sent', attempts: 1 }));
    expect(logged.subject).toBe(arrived.subject);
    expect(logged.html.match(LOGIN_LINK)?.[0]).toBe(arrived.html.match(LOGIN_LINK)?.[0]);
  });

  it('a failing provider is retried by the activity until it accepts, and the mail is sent once', async () => {
    await configureProvider('provider_a', { active: true, email: 'academy@delivered.test', ...PROVIDER_A_KEYS });
    providers.a.failNext(2);
    const email = await grantNewParticipant('via-a');

    const logged = await loggedMail(email, (mail) => expect(mail).toMatchObject({ provider: 'provider_a', status: 'sent' }));
    expect(logged.attempts).toBe(3);
    const sent = providers.a.sent.filter((call) => call.body.to[0].email === email);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body.html_part).toMatch(LOGIN_LINK);
    expect(providers.b.received.some((m) => m.to.includes(email))).toBe(false);
  });

  it('`active: false` hands sending back to the next active provider', async () => {
    await configureProvider('provider_a', { active: false });
    const email = await grantNewParticipant('back-to-b');
    await loggedMail(email, (mail) => expect(mail).toMatchObject({ provider: 'provider_b', status: 'sent' }));
    expect(providers.b.received.some((m) => m.to.includes(email))).toBe(true);
  });
});
