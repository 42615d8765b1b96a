import { describe, expect, it } from 'vitest';
import { activeProvider, chooseSender, htmlToText, isConfigured, messageIdFor, providerProblems } from '../../../domain/shared/mail-delivery.ts';

describe('activeProvider (rule 3)', () => {
  const p = (provider: string, active: boolean) => ({ provider, active });

  it('is the first active provider in the order a, b, c, whatever order they are stored in', () => {
    expect(activeProvider([p('provider_c', true), p('provider_b', true), p('provider_a', true)])?.provider).toBe('provider_a');
    expect(activeProvider([p('provider_c', true), p('provider_b', true), p('provider_a', false)])?.provider).toBe('provider_b');
    expect(activeProvider([p('provider_c', true), p('provider_b', false)])?.provider).toBe('provider_c');
  });

  it('is null when none is active', () => {
    expect(activeProvider([p('provider_a', false), p('provider_b', false)])).toBeNull();
    expect(activeProvider([])).toBeNull();
  });
});

describe('providerProblems', () => {
  it('an active provider needs its secrets and its sending fields', () => {
    expect(providerProblems('provider_b', { active: true, fields: {}, secretNames: [] })).toEqual({
      smtp_username: ['is required while the provider is active'],
      smtp_password: ['is required while the provider is active'],
      region: ['is required while the provider is active'],
      email: ['is required while the provider is active'],
    });
  });

  it('credentials are complete or absent', () => {
    expect(providerProblems('provider_a', { active: false, fields: {}, secretNames: ['app_key'] })).toEqual({ secret_key: ['is required together with app_key'] });
    expect(providerProblems('provider_a', { active: false, fields: {}, secretNames: [] })).toEqual({});
  });

  it('a complete provider has no problems and is configured', () => {
    const stored = { active: true, fields: { email: 'a@x.test' }, secretNames: ['app_key', 'secret_key'] };
    expect(providerProblems('provider_a', stored)).toEqual({});
    expect(isConfigured('provider_a', stored)).toBe(true);
    expect(isConfigured('provider_a', { ...stored, fields: {} })).toBe(false);
  });
});

describe('chooseSender', () => {
  const base = { template: { email: null, name: null }, platform: { email: null, name: null }, platformTitle: 'Academy', fallbackAddress: 'no-reply@x.test' };

  it("a provider sends from its own address; the template's sender gets the replies", () => {
    expect(chooseSender({ ...base, provider: { email: 'send@provider.test', name: 'Prov' }, template: { email: 'teacher@x.test', name: 'Teacher' } })).toEqual({
      from: { address: 'send@provider.test', name: 'Teacher' },
      replyTo: 'teacher@x.test',
    });
  });

  it("the default transport sends as the template, the platform's default sender, or the fallback", () => {
    expect(chooseSender({ ...base, platform: { email: 'hello@x.test', name: 'Hello' } })).toEqual({ from: { address: 'hello@x.test', name: 'Hello' }, replyTo: null });
    expect(chooseSender(base)).toEqual({ from: { address: 'no-reply@x.test', name: 'Academy' }, replyTo: null });
  });
});

describe('messageIdFor and htmlToText', () => {
  it('derives the Message-ID from the mail id and the sending domain', () => {
    expect(messageIdFor('6a2f', 'news@academy.test')).toBe('<6a2f@academy.test>');
  });

  it('keeps links and paragraphs in the text part', () => {
    const html = '<p>Hello <b>Ann</b>,</p><p><a href="https://x.test/login?invitation=abc&amp;x=1">Log in</a></p><style>p{}</style>';
    expect(htmlToText(html)).toBe('Hello Ann,\nLog in (https://x.test/login?invitation=abc&x=1)');
  });
});
