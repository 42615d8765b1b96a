import { z } from 'zod';
import { isHexColor, isWebUrl } from '../../../domain/access/appearance.ts';
import { ImageUpload } from '../../shared/schemas.ts';

type Json = Record<string, unknown>;

/** One field of an appearance document, written once: how it is sent, how it reads, its value when never saved. */
interface Field<W extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  write: W;
  read: R;
  default: unknown;
}

const text = z.string().trim().max(255);
/** HTML is stored as sent (docs/decisions/, "HTML content of the configuration interface"). */
const html = z.string().max(200_000);
const color = z.string().refine(isHexColor, 'must be a colour in #RRGGBB format');
/** A link, or `null` / `""` to remove it. */
const link = z.union([z.literal('').transform(() => null), z.string().trim().max(2048).refine(isWebUrl, 'must be an absolute http(s) URL')]).nullable();

const nullableString = z.string().nullable();
/** A text-like field: null when never saved. */
const textual = <W extends z.ZodType>(write: W) => ({ write, read: nullableString, default: null }) satisfies Field;
const flag = () => ({ write: z.boolean(), read: z.boolean(), default: false }) satisfies Field;

/** The fields of the platform settings document (`GET, PATCH /platform`), apart from the title and the images. */
const PLATFORM_SETTINGS_FIELDS = {
  public_hero_title: textual(text.nullable()),
  public_hero_description: textual(html.nullable()),
  primary_color: textual(color.nullable()),
  navbar_color: textual(color.nullable()),
  navbar_font_color: textual(color.nullable()),
  social_icons_color: textual(color.nullable()),
  open_platform_enabled: flag(),
  login_frame_enabled: flag(),
  open_platform_about_enabled: flag(),
  open_platform_contact_enabled: flag(),
  open_platform_about_content: textual(html.nullable()),
  open_platform_contact_content: textual(html.nullable()),
  platform_rules: textual(html.nullable()),
  social_facebook: textual(link),
  social_instagram: textual(link),
  social_youtube: textual(link),
  social_tiktok: textual(link),
  social_linkedin: textual(link),
  footer: { write: z.strictObject({ content: html.nullable() }).partial(), read: z.object({ content: nullableString }), default: { content: null } },
  default_email_sender: {
    write: z.strictObject({ name: text.nullable(), email: z.email().max(254).nullable() }).partial(),
    read: z.object({ name: nullableString, email: nullableString }),
    default: { name: null, email: null },
  },
  course_global_config: { write: z.strictObject({ video_border: z.boolean() }).partial(), read: z.object({ video_border: z.boolean() }), default: { video_border: false } },
};
export const PLATFORM_IMAGE_FIELDS = ['logo', 'favicon', 'mobile_icon'] as const;

/** The welcome section document (`GET, PATCH /welcome_section`), apart from its cover image. */
const WELCOME_SECTION_FIELDS = {
  welcome_title: textual(text.nullable()),
  welcome_text: textual(html.nullable()),
  welcome_video_url: textual(link),
  welcome_bg_color: textual(color.nullable()),
  welcome_title_color: textual(color.nullable()),
  welcome_text_color: textual(color.nullable()),
};
export const WELCOME_IMAGE_FIELDS = ['welcome_cover'] as const;

type Writes<F extends Record<string, Field>> = { [K in keyof F]: F[K]['write'] };
type Reads<F extends Record<string, Field>> = { [K in keyof F]: F[K]['read'] };

const writes = <F extends Record<string, Field>>(fields: F) => Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, f.write])) as Writes<F>;
const reads = <F extends Record<string, Field>>(fields: F) => Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, f.read])) as Reads<F>;
const defaults = (fields: Record<string, Field>): Json => Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, f.default]));

/** Image fields take an upload, or `null` to remove the image. */
const image = ImageUpload.nullable();
const images = <N extends string>(names: readonly N[]) => Object.fromEntries(names.map((n) => [n, image])) as Record<N, typeof image>;
const imageUrl = z.string().nullable().describe('where the image is served; null without one');
const imageUrls = <N extends string>(names: readonly N[]) => Object.fromEntries(names.map((n) => [`${n}_url`, imageUrl])) as Record<`${N}_url`, typeof imageUrl>;

export const PLATFORM_SETTINGS_DEFAULTS = defaults(PLATFORM_SETTINGS_FIELDS);
export const WELCOME_SECTION_DEFAULTS = defaults(WELCOME_SECTION_FIELDS);

export const PlatformSettingsPatch = z
  .strictObject({
    title: z.string().trim().min(1, 'the platform must have a title').max(255),
    ...writes(PLATFORM_SETTINGS_FIELDS),
    ...images(PLATFORM_IMAGE_FIELDS),
  })
  .partial()
  .describe('Only the fields sent change; in `footer`, `default_email_sender` and `course_global_config` only the members sent.');
export type PlatformSettingsPatch = z.output<typeof PlatformSettingsPatch>;

export const PlatformSettingsReply = z.object({ title: z.string(), ...reads(PLATFORM_SETTINGS_FIELDS), ...imageUrls(PLATFORM_IMAGE_FIELDS) });

export const WelcomeSectionPatch = z
  .strictObject({ ...writes(WELCOME_SECTION_FIELDS), ...images(WELCOME_IMAGE_FIELDS) })
  .partial()
  .describe('Only the fields sent change; `welcome_cover: null` removes the cover.');
export type WelcomeSectionPatch = z.output<typeof WelcomeSectionPatch>;

export const WelcomeSectionReply = z.object({ ...reads(WELCOME_SECTION_FIELDS), ...imageUrls(WELCOME_IMAGE_FIELDS) });
