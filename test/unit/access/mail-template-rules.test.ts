import { describe, expect, it } from 'vitest';
import { courseMailPlan, DAY_MS } from '../../../domain/access/course-mail-schedule.ts';
import { INVITATION_SLUGS, loginLinkTagProblem } from '../../../domain/access/mail-template-rules.ts';
import { DEFAULT_TEMPLATES } from '../../../domain/access/mail-templates.ts';

describe('{{LINK_LOGOWANIE}} in invitation templates', () => {
  it('is accepted as plain text, also as the text of a link', () => {
    expect(loginLinkTagProblem('<p>Sign in: {{LINK_LOGOWANIE}}</p>')).toBeNull();
    expect(loginLinkTagProblem('<p><a href="https://help.test">{{LINK_LOGOWANIE}}</a></p>')).toBeNull();
  });

  it('is required', () => {
    expect(loginLinkTagProblem('<p>Sign in on our page</p>')).toMatch(/must contain/);
    expect(loginLinkTagProblem('<p>{{LINK_LOGIN}}</p>')).toMatch(/must contain/);
  });

  it('must not be a link target, quoted or not, alone or within a URL', () => {
    for (const html of [
      '<a href="{{LINK_LOGOWANIE}}">in</a>',
      "<a href='{{LINK_LOGOWANIE}}'>in</a>",
      '<a href={{LINK_LOGOWANIE}}>in</a>',
      '<a class="b" HREF = "https://x.test/?next={{LINK_LOGOWANIE}}">in</a> {{LINK_LOGOWANIE}}',
    ]) {
      expect(loginLinkTagProblem(html), html).toMatch(/href/);
    }
  });

  it('inside another attribute only is not plain text', () => {
    expect(loginLinkTagProblem('<img alt="{{LINK_LOGOWANIE}}">')).toMatch(/must contain/);
  });

  it('every default invitation template follows the rule', () => {
    for (const slug of INVITATION_SLUGS) expect(loginLinkTagProblem(DEFAULT_TEMPLATES[slug]!.description), slug).toBeNull();
  });
});

describe('when timed course mails are due', () => {
  const enrolledAt = new Date('2030-03-01T10:00:00Z');
  const template = (id: string, sendAfterDays: number | null, active = true) => ({ id, active, sendAfterDays });

  it('send_after days after the trigger, soonest first; inactive templates are not planned', () => {
    const plan = courseMailPlan([template('t3', 3), template('t0', 0), template('off', 1, false), template('t1', 1)], enrolledAt, enrolledAt);
    expect(plan).toEqual([
      { templateId: 't0', delayMs: 0 },
      { templateId: 't1', delayMs: DAY_MS },
      { templateId: 't3', delayMs: 3 * DAY_MS },
    ]);
  });

  it('counts from the trigger, not from now, and never gives a negative delay', () => {
    const later = new Date(enrolledAt.getTime() + 2 * DAY_MS);
    expect(courseMailPlan([template('t1', 1), template('t5', 5), template('none', null)], enrolledAt, later)).toEqual([
      { templateId: 'none', delayMs: 0 },
      { templateId: 't1', delayMs: 0 },
      { templateId: 't5', delayMs: 3 * DAY_MS },
    ]);
  });
});
