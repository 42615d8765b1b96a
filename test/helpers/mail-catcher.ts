/** Reads what the mail catcher (scripts/stack/mail-catcher.ts, MailDev) received, through its REST API. */
import { expect } from 'vitest';
import { eventually } from './stack.ts';

export interface CaughtMail {
  id: string;
  subject: string;
  from: { address: string; name: string }[];
  to: { address: string; name: string }[];
  /** Lower-cased header names. */
  headers: Record<string, string>;
  html: string;
  text: string;
}

export async function caughtMails(uiUrl: string): Promise<CaughtMail[]> {
  const res = await fetch(`${uiUrl}/api/email`);
  expect(res.status).toBe(200);
  return (await res.json()) as CaughtMail[];
}

/** The one message the catcher holds for `address`, once it is there. */
export function caughtMailTo(uiUrl: string, address: string): Promise<CaughtMail> {
  return eventually(async () => {
    const mails = (await caughtMails(uiUrl)).filter((m) => m.to.some((t) => t.address === address));
    expect(mails).toHaveLength(1);
    return mails[0]!;
  }, { timeoutMs: 60_000, intervalMs: 250 });
}

/** The `count` messages the catcher holds for `address`, oldest first, once they are all there. */
export function caughtMailsTo(uiUrl: string, address: string, count: number): Promise<CaughtMail[]> {
  return eventually(async () => {
    const mails = (await caughtMails(uiUrl)).filter((m) => m.to.some((t) => t.address === address));
    expect(mails).toHaveLength(count);
    return mails;
  }, { timeoutMs: 60_000, intervalMs: 250 });
}
