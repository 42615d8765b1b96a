/**
 * When timed course mails go out (spec: Course e-mail template, `send_after`): a template is due
 * `send_after` days after its trigger, the enrolment or the completion of its lesson. A due time
 * already past gives no delay, so nothing is skipped after a late start.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;

export interface TimedTemplate {
  id: string;
  active: boolean;
  sendAfterDays: number | null;
}

export interface PlannedMail {
  templateId: string;
  delayMs: number;
}

export function courseMailPlan(templates: readonly TimedTemplate[], triggeredAt: Date, now: Date): PlannedMail[] {
  return templates
    .filter((t) => t.active)
    .map((t) => ({ templateId: t.id, delayMs: Math.max(0, triggeredAt.getTime() + (t.sendAfterDays ?? 0) * DAY_MS - now.getTime()) }))
    .sort((a, b) => a.delayMs - b.delayMs || a.templateId.localeCompare(b.templateId));
}
