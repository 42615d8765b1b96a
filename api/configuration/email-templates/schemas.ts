import { z } from 'zod';

/** Bodies and replies of the platform's and the courses' e-mail templates. */

const text = z.string().trim().max(255);

export const TemplateListItem = z.object({
  slug: z.string(),
  name: z.string(),
  subject: z.string(),
  tags: z.array(z.string()),
  customized: z.boolean(),
});
export const TemplateDetails = TemplateListItem.extend({
  host: z.string().describe('the platform address the links in the mail point to'),
  sender_name: z.string().nullable().describe("null: the platform's default_email_sender"),
  sender_email: z.string().nullable().describe("null: the platform's default_email_sender"),
  description: z.string().describe('HTML body'),
});
const courseExtras = {
  active: z.boolean(),
  send_after: z.number().int().nullable().describe('days after enrolment, or after completing send_after_lesson'),
  send_after_lesson: z.uuid().nullable(),
  notify_previous_users: z.boolean(),
};
export const CourseTemplateListItem = TemplateListItem.extend(courseExtras);
export const CourseTemplateDetails = TemplateDetails.extend(courseExtras);

const subject = z.string().trim().min(1).max(255);
const body = z.string().min(1).max(200_000);
const templateFields = {
  subject,
  description: body,
  sender_name: text.nullable(),
  sender_email: z.email().max(254).nullable(),
};
export const TemplatePatch = z
  .strictObject(templateFields)
  .partial()
  .describe('Writable: subject, description, sender_name, sender_email. The first change makes the platform its own copy.');

const sendAfter = z.number().int().min(0).max(3650);
const courseFields = { active: z.boolean(), send_after: sendAfter.nullable(), send_after_lesson: z.uuid().nullable(), notify_previous_users: z.boolean() };
export const CourseTemplatePatch = z
  .strictObject({ ...templateFields, ...courseFields })
  .partial()
  .describe('Writable: the template fields, active; for timed mails also send_after, send_after_lesson and notify_previous_users.');
export type CourseTemplatePatch = z.output<typeof CourseTemplatePatch>;

export const CreateCourseTemplateBody = z
  .strictObject({
    name: text.min(1).optional(),
    subject,
    description: body,
    active: z.boolean().default(true),
    send_after_lesson: z.uuid().optional().describe('a lesson of this course: the mail goes once a participant completes it'),
    send_after: sendAfter.optional().describe('days after enrolment (or after completing send_after_lesson)'),
    notify_previous_users: z.boolean().default(false),
    sender_name: text.nullable().optional(),
    sender_email: z.email().max(254).nullable().optional(),
  })
  .refine((b) => b.send_after_lesson !== undefined || b.send_after !== undefined, {
    message: 'send_after_lesson or send_after is required',
    path: ['send_after_lesson'],
  });
export type CreateCourseTemplateBody = z.output<typeof CreateCourseTemplateBody>;

export const SendTestBody = z.strictObject({ email: z.email().max(254) });
export const SendTestReply = z.object({ status: z.literal('queued'), to: z.string() });

export const CustomInvitationBody = z.strictObject({ enabled: z.boolean() });
export const CustomInvitationReply = z.object({ enabled: z.boolean(), templates: z.array(CourseTemplateListItem) });

export const SlugParams = z.object({ slug: z.string().min(1).max(64) });
export const CourseParams = z.object({ course_id: z.string().min(1).max(255).describe('a course id or slug') });
export const CourseSlugParams = CourseParams.extend(SlugParams.shape);
