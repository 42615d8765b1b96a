import { z } from 'zod';
import { isHexColor, isWebUrl } from '../../domain/access/appearance.ts';
import { CONFIGURATION_SCOPES } from '../../domain/access/configuration-keys.ts';
import { checkImage } from '../../domain/shared/images.ts';

export { data } from '../shared/schemas.ts';

const text = z.string().trim().max(255);
/** HTML is stored as sent (docs/decisions.md, "HTML content of the configuration interface"). */
const html = z.string().max(200_000);
const color = z.string().refine(isHexColor, 'must be a colour in #RRGGBB format');
/** A link, or `null` / `""` to remove it. */
const link = z.union([z.literal('').transform(() => null), z.string().trim().max(2048).refine(isWebUrl, 'must be an absolute http(s) URL')]).nullable();

/**
 * An uploaded image: `data` is the file in base64; the type is decided from the bytes (PNG or
 * JPEG), never from `content_type` or the name; 5 MB and above is refused.
 */
export const ImageUpload = z
  .strictObject({
    filename: z.string().trim().min(1).max(255),
    content_type: z.string().max(100).optional().describe('informative only: the type is decided from the file content'),
    data: z.string().min(1).describe('the file in base64'),
  })
  .transform((image, ctx) => {
    const check = checkImage(image.data);
    if (!check.ok) {
      ctx.addIssue({ code: 'custom', message: check.message });
      return z.NEVER;
    }
    return { filename: image.filename, contentType: check.contentType, bytes: check.bytes };
  });
export type ImageInput = z.output<typeof ImageUpload>;

/** Images fields take an upload, or `null` to remove the image. */
const image = ImageUpload.nullable();

export const PlatformSettingsPatch = z
  .strictObject({
    title: z.string().trim().min(1, 'the platform must have a title').max(255),
    public_hero_title: text.nullable(),
    public_hero_description: html.nullable(),
    primary_color: color.nullable(),
    navbar_color: color.nullable(),
    navbar_font_color: color.nullable(),
    social_icons_color: color.nullable(),
    open_platform_enabled: z.boolean(),
    login_frame_enabled: z.boolean(),
    open_platform_about_enabled: z.boolean(),
    open_platform_contact_enabled: z.boolean(),
    open_platform_about_content: html.nullable(),
    open_platform_contact_content: html.nullable(),
    platform_rules: html.nullable(),
    social_facebook: link,
    social_instagram: link,
    social_youtube: link,
    social_tiktok: link,
    social_linkedin: link,
    footer: z.strictObject({ content: html.nullable() }).partial(),
    default_email_sender: z.strictObject({ name: text.nullable(), email: z.email().max(254).nullable() }).partial(),
    course_global_config: z.strictObject({ video_border: z.boolean() }).partial(),
    logo: image,
    favicon: image,
    mobile_icon: image,
  })
  .partial()
  .describe('Only the fields sent change; in `footer`, `default_email_sender` and `course_global_config` only the members sent.');
export type PlatformSettingsPatch = z.output<typeof PlatformSettingsPatch>;

const imageUrl = z.string().nullable().describe('where the image is served; null without one');
export const PlatformSettingsReply = z.object({
  title: z.string(),
  public_hero_title: z.string().nullable(),
  public_hero_description: z.string().nullable(),
  primary_color: z.string().nullable(),
  navbar_color: z.string().nullable(),
  navbar_font_color: z.string().nullable(),
  social_icons_color: z.string().nullable(),
  open_platform_enabled: z.boolean(),
  login_frame_enabled: z.boolean(),
  open_platform_about_enabled: z.boolean(),
  open_platform_contact_enabled: z.boolean(),
  open_platform_about_content: z.string().nullable(),
  open_platform_contact_content: z.string().nullable(),
  platform_rules: z.string().nullable(),
  social_facebook: z.string().nullable(),
  social_instagram: z.string().nullable(),
  social_youtube: z.string().nullable(),
  social_tiktok: z.string().nullable(),
  social_linkedin: z.string().nullable(),
  footer: z.object({ content: z.string().nullable() }),
  default_email_sender: z.object({ name: z.string().nullable(), email: z.string().nullable() }),
  course_global_config: z.object({ video_border: z.boolean() }),
  logo_url: imageUrl,
  favicon_url: imageUrl,
  mobile_icon_url: imageUrl,
});

export const WelcomeSectionPatch = z
  .strictObject({
    welcome_title: text.nullable(),
    welcome_text: html.nullable(),
    welcome_video_url: link,
    welcome_bg_color: color.nullable(),
    welcome_title_color: color.nullable(),
    welcome_text_color: color.nullable(),
    welcome_cover: image,
  })
  .partial()
  .describe('Only the fields sent change; `welcome_cover: null` removes the cover.');
export type WelcomeSectionPatch = z.output<typeof WelcomeSectionPatch>;

export const WelcomeSectionReply = z.object({
  welcome_title: z.string().nullable(),
  welcome_text: z.string().nullable(),
  welcome_video_url: z.string().nullable(),
  welcome_bg_color: z.string().nullable(),
  welcome_title_color: z.string().nullable(),
  welcome_text_color: z.string().nullable(),
  welcome_cover_url: imageUrl,
});

export const SelfReply = z.object({
  platform: z.object({ subdomain: z.string(), title: z.string() }),
  key: z.object({
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(z.enum(CONFIGURATION_SCOPES)),
    expires_at: z.iso.datetime().nullable(),
  }),
});

// ----- e-mail templates

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
