/**
 * The subscriber's mails (issue 12). Plans keep their own templates in the panel (spec:
 * Subscription plan), so the service sends these built-in texts. The plan's flags switch the
 * activation, renewal and reminder mails; the dunning notice and the expiry always go.
 */
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

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Subject and HTML of one mail; `until` is the end of the period it speaks of (ISO date). */
export function subscriberMail(kind: SubscriberMailKind, p: { planName: string; until: string }): { subject: string; html: string } {
  const plan = escape(p.planName);
  const until = escape(p.until.slice(0, 10));
  switch (kind) {
    case 'activation':
      return { subject: `Your subscription ${p.planName} is active`, html: `<p>Your subscription <b>${plan}</b> is active until ${until}.</p>` };
    case 'renewal':
      return { subject: `Your subscription ${p.planName} was renewed`, html: `<p>Your subscription <b>${plan}</b> was renewed until ${until}.</p>` };
    case 'expires_in_one_week':
      return { subject: `Your subscription ${p.planName} ends in one week`, html: `<p>Your subscription <b>${plan}</b> ends on ${until}, in one week.</p>` };
    case 'expires_in_one_day':
      return { subject: `Your subscription ${p.planName} ends tomorrow`, html: `<p>Your subscription <b>${plan}</b> ends on ${until}, tomorrow.</p>` };
    case 'payment_failed':
      return {
        subject: `We could not renew your subscription ${p.planName}`,
        html: `<p>The renewal payment of your subscription <b>${plan}</b> (ended ${until}) was declined. We will try again in the coming days; please check your saved payment.</p>`,
      };
    case 'expired':
      return { subject: `Your subscription ${p.planName} has expired`, html: `<p>Your subscription <b>${plan}</b> has expired: its renewal payment was declined on every attempt.</p>` };
  }
}
