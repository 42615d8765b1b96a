import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../domain/shared/config.ts';
import { normalizeEmail } from '../../../domain/shared/email.ts';
import { renderTemplate, DEFAULT_TEMPLATES, LOGIN_LINK_TAG } from '../../../domain/access/mail-templates.ts';
import { slugify } from '../../../domain/shared/slug.ts';
import { accessCommandWorkflowId, orderWorkflowId } from '../../../domain/shared/workflow-ids.ts';

describe('small rules', () => {
  it('e-mails compare without letter case', () => {
    expect(normalizeEmail('  Ann.Smith@Example.COM ')).toBe('ann.smith@example.com');
  });

  it('workflow ids carry the tenant first, then the business ids', () => {
    expect(accessCommandWorkflowId({ platformId: 'p1', item: { kind: 'course', id: 'c1' }, person: 'h1', command: 'grant', seq: 7 })).toBe(
      'platform/p1/course/c1/h1/grant/7',
    );
    expect(orderWorkflowId({ platformId: 'p1', orderId: 'o1', step: 'cancel' })).toBe('platform/p1/order/o1/cancel');
  });

  it('slugs are URL-safe', () => {
    expect(slugify('Łódź: Kurs języka  Polskiego!')).toBe('lodz-kurs-jezyka-polskiego');
    expect(slugify('???')).toBe('course');
  });

  it('renders tags, escaping values in the HTML body', () => {
    const mail = renderTemplate(
      { subject: 'Hi {{PARTICIPANT_NAME}}', description: `<a>${LOGIN_LINK_TAG}</a> {{PARTICIPANT_NAME}} {{UNKNOWN}}` },
      { loginLink: 'https://x.test/login?a=1&b=2', participantName: '<Ann>' },
    );
    expect(mail.subject).toBe('Hi <Ann>');
    expect(mail.html).toBe('<a>https://x.test/login?a=1&#38;b=2</a> &#60;Ann&#62; {{UNKNOWN}}');
  });

  it('the default invitation carries the login link tag', () => {
    expect(DEFAULT_TEMPLATES.user_invitation?.description).toContain(LOGIN_LINK_TAG);
  });

  it('configuration is validated at boot and names the variable', () => {
    expect(() => parseConfig({})).toThrow(/DATABASE_URL/);
    expect(() => parseConfig({ DATABASE_URL: 'postgres://x', PORT: 'abc' })).toThrow(/PORT/);
    expect(parseConfig({ DATABASE_URL: 'postgres://x' })).toMatchObject({ PORT: 3000, HOST: '127.0.0.1', TEMPORAL_NAMESPACE: 'default' });
  });
});
