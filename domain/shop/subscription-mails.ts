/**
 * The subscriber's mails (issue 12; DESIGN.md section 10). A plan's own texts come from the panel
 * (`PUT .../subscription_plans/:plan_id/emails/:kind`); without one the built-in text goes, in
 * Polish (there is no language setting: the shop's language is Polish, as the spec's tags are).
 * Dates are days in the shop's time zone, written as Poles write them (05.12.2026). The plan's
 * flags switch the activation, renewal and reminder mails; the dunning notice and the expiry
 * always go.
 */
import { fillTags } from './mail-tags.ts';
import type { ReminderKind } from './subscription-periods.ts';

export type SubscriberMailKind = 'activation' | 'renewal' | ReminderKind | 'payment_failed' | 'expired';

export interface PlanMailFlags {
  sendEmailAboutActivation: boolean;
  sendEmailAboutRenewal: boolean;
  sendEmailAboutExpirationInOneWeek: boolean;
  sendEmailAboutExpirationInOneDay: boolean;
}

/** Whether the plan sends this mail. */
export function planSends(plan: PlanMailFlags, kind: SubscriberMailKind): boolean {
  switch (kind) {
    case 'activation':
      return plan.sendEmailAboutActivation;
    case 'renewal':
      return plan.sendEmailAboutRenewal;
    case 'expires_in_one_week':
      return plan.sendEmailAboutExpirationInOneWeek;
    case 'expires_in_one_day':
      return plan.sendEmailAboutExpirationInOneDay;
    case 'payment_failed':
    case 'expired':
      return true;
  }
}

/** The reminders a plan sends, for the renewal schedule. */
export function planReminders(plan: PlanMailFlags): ReminderKind[] {
  return (['expires_in_one_week', 'expires_in_one_day'] as const).filter((kind) => planSends(plan, kind));
}

/** The mails whose text the panel sets, as its path names them. */
export const PLAN_EMAIL_KINDS = ['activation', 'renewal', 'expiration_in_one_week', 'expiration_in_one_day'] as const;
export type PlanEmailKind = (typeof PLAN_EMAIL_KINDS)[number];

/** The plan's text a mail of this kind uses; null for the mails only the built-in text covers. */
export function planEmailKindOf(kind: SubscriberMailKind): PlanEmailKind | null {
  switch (kind) {
    case 'activation':
    case 'renewal':
      return kind;
    case 'expires_in_one_week':
      return 'expiration_in_one_week';
    case 'expires_in_one_day':
      return 'expiration_in_one_day';
    default:
      return null;
  }
}

/** The tags a subscriber mail fills, beside the spec's `{{IMIE}}`, `{{NAZWISKO}}` and `{{EMAIL}}`. */
export const SUBSCRIBER_MAIL_TAGS = ['IMIE', 'NAZWISKO', 'EMAIL', 'NAZWA_PLANU', 'DATA_WAZNOSCI', 'NAZWA_SKLEPU'] as const;

export interface MailText {
  subject: string;
  /** HTML, with tags. */
  content: string;
}

/** The built-in texts (Polish). */
export const DEFAULT_SUBSCRIBER_MAILS: Readonly<Record<SubscriberMailKind, MailText>> = {
  activation: {
    subject: 'Twoja subskrypcja {{NAZWA_PLANU}} jest aktywna',
    content: '<p>Dzień dobry,</p><p>Twoja subskrypcja <b>{{NAZWA_PLANU}}</b> jest aktywna do {{DATA_WAZNOSCI}}.</p><p>{{NAZWA_SKLEPU}}</p>',
  },
  renewal: {
    subject: 'Twoja subskrypcja {{NAZWA_PLANU}} została odnowiona',
    content: '<p>Dzień dobry,</p><p>Twoja subskrypcja <b>{{NAZWA_PLANU}}</b> została odnowiona do {{DATA_WAZNOSCI}}.</p><p>{{NAZWA_SKLEPU}}</p>',
  },
  expires_in_one_week: {
    subject: 'Twoja subskrypcja {{NAZWA_PLANU}} wygasa za tydzień',
    content: '<p>Dzień dobry,</p><p>Twoja subskrypcja <b>{{NAZWA_PLANU}}</b> wygasa za tydzień, {{DATA_WAZNOSCI}}.</p><p>{{NAZWA_SKLEPU}}</p>',
  },
  expires_in_one_day: {
    subject: 'Twoja subskrypcja {{NAZWA_PLANU}} wygasa jutro',
    content: '<p>Dzień dobry,</p><p>Twoja subskrypcja <b>{{NAZWA_PLANU}}</b> wygasa jutro, {{DATA_WAZNOSCI}}.</p><p>{{NAZWA_SKLEPU}}</p>',
  },
  payment_failed: {
    subject: 'Nie udało się odnowić subskrypcji {{NAZWA_PLANU}}',
    content:
      '<p>Dzień dobry,</p><p>Płatność za odnowienie subskrypcji <b>{{NAZWA_PLANU}}</b> (okres zakończony {{DATA_WAZNOSCI}}) została odrzucona. Spróbujemy ponownie w najbliższych dniach; sprawdź zapisaną metodę płatności.</p><p>{{NAZWA_SKLEPU}}</p>',
  },
  expired: {
    subject: 'Twoja subskrypcja {{NAZWA_PLANU}} wygasła',
    content: '<p>Dzień dobry,</p><p>Twoja subskrypcja <b>{{NAZWA_PLANU}}</b> wygasła: jej odnowienie nie zostało opłacone.</p><p>{{NAZWA_SKLEPU}}</p>',
  },
};

/** A day as Poles write it (05.12.2026), in `timeZone`. */
export function polishDate(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('pl-PL', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric' }).format(instant);
}

export interface SubscriberMailFacts {
  planName: string;
  /** The end of the period the mail speaks of. */
  until: Date;
  timeZone: string;
  shopName: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** Subject and HTML of one mail: the plan's own text when it set one, else the built-in one, its tags filled. */
export function subscriberMail(kind: SubscriberMailKind, facts: SubscriberMailFacts, planText: MailText | null = null): { subject: string; html: string } {
  const text = planText ?? DEFAULT_SUBSCRIBER_MAILS[kind];
  const tags: Record<(typeof SUBSCRIBER_MAIL_TAGS)[number], string> = {
    IMIE: facts.firstName,
    NAZWISKO: facts.lastName,
    EMAIL: facts.email,
    NAZWA_PLANU: facts.planName,
    DATA_WAZNOSCI: polishDate(facts.until, facts.timeZone),
    NAZWA_SKLEPU: facts.shopName,
  };
  // A subject is plain text: its tags are filled as written (the mail header is not HTML).
  const subject = text.subject.replace(/\{\{\s*([A-Z0-9_]+)\s*\}\}/g, (whole, name: string) => (Object.hasOwn(tags, name) ? tags[name as keyof typeof tags] : whole));
  return { subject, html: fillTags(text.content, tags) };
}
