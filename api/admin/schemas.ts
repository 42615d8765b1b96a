import { z } from 'zod';
import { CONFIGURATION_SCOPES } from '../../domain/access/configuration-keys.ts';

export { data } from '../shared/schemas.ts';

export const PlatformParams = z.object({ platform_id: z.uuid() });
/** The path parameter of a tenant (a platform's or a shop's), for the routes both kinds have. */
export type TenantParams = z.ZodObject<{ platform_id: z.ZodUUID } | { shop_id: z.ZodUUID }>;
export const CourseParams = PlatformParams.extend({ course_id: z.uuid() });

export const CreatePlatformBody = z.object({
  subdomain: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'lower-case letters, digits and inner dashes, at most 63'),
  title: z.string().trim().min(1).max(255),
  admin_email: z.email().max(254).nullish(),
});
export const PlatformReply = z.object({
  id: z.uuid(),
  subdomain: z.string(),
  title: z.string(),
  admin_email: z.string().nullable(),
  api_key: z.string().describe('The full key: shown once, only its hash is stored.'),
});

export const ApiKeyReply = z.object({ api_key: z.string() });

const domainName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(\*\.)?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'a host name, optionally starting with *.');
export const AllowedDomainsBody = z.object({ domains: z.array(domainName).max(100) });
export const AllowedDomainsReply = z.object({ domains: z.array(z.string()) });

const LessonInput = z.object({ title: z.string().trim().min(1).max(255) });
const SectionInput = z.object({
  title: z.string().trim().min(1).max(255),
  access_level: z.union([z.literal(0), z.literal(1)]).default(0),
  lessons: z.array(LessonInput).max(500).default([]),
});
export const CreateCourseBody = z.object({
  title: z.string().trim().min(1).max(255),
  slug: z
    .string()
    .trim()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lower-case letters, digits and single dashes')
    .max(80)
    .optional(),
  active: z.boolean().default(true),
  sections: z.array(SectionInput).max(200).default([]),
});
export const UpdateCourseBody = z.object({ title: z.string().trim().min(1).max(255).optional(), active: z.boolean().optional() });
export const CourseReply = z.object({
  id: z.uuid(),
  slug: z.string(),
  title: z.string(),
  active: z.boolean(),
  sections: z.array(
    z.object({
      id: z.uuid(),
      title: z.string(),
      access_level: z.number().int(),
      lessons: z.array(z.object({ id: z.uuid(), title: z.string() })),
    }),
  ),
});

export const CreateAudiobookBody = z.object({ title: z.string().trim().min(1).max(255), active: z.boolean().default(true) });
export const AudiobookReply = z.object({ id: z.uuid(), title: z.string(), active: z.boolean() });

export const EmailQuery = z.object({ email: z.string().min(1).max(254) });
export const OrderFileReply = z
  .object({ key: z.string(), name: z.string().nullable(), description: z.string().nullable(), cover_key: z.string().nullable(), uri: z.string().nullable() })
  .describe("a file from an order line's `file_keys`, its members as the order sent them (null when absent)")
  .meta({ id: 'OrderFile' });

export const AccessOrderParams = PlatformParams.extend({ order_id: z.uuid() });
export const AccessOrderReply = z
  .object({
    id: z.uuid(),
    external_id: z.string(),
    email: z.string(),
    ordinal_number: z.string().nullable(),
    gift_code: z.string().nullable(),
    status: z.enum(['registered', 'cancelled']),
    ordered_contents: z.array(z.record(z.string(), z.unknown())).describe('the lines as registered, `file_keys` members as sent'),
    files: z.array(OrderFileReply).describe("the lines' `file_keys`, one per key (the participant holds them while the order is fulfilled and not cancelled)"),
    created_at: z.iso.datetime(),
    fulfilled_at: z.iso.datetime().nullable(),
    cancelled_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'AccessOrder' });

export const ParticipantReply = z.object({
  email: z.string(),
  name: z.string().nullable(),
  invited: z.boolean(),
  courses: z.array(
    z.object({
      course_id: z.uuid(),
      access_level: z.number().int(),
      active: z.boolean(),
      viewed_at: z.iso.datetime().nullable().describe('first view of the course (a course_views report or the first lesson completion)'),
      visible_lesson_ids: z.array(z.uuid()),
    }),
  ),
  audiobook_ids: z.array(z.uuid()),
  files: z.array(OrderFileReply).describe("the files of the participant's fulfilled, not cancelled orders (their lines' `file_keys`): one per key, in the order first given, described as the latest order gave it; a cancelled order's files are withdrawn unless another active order gives them"),
});

export const ReinviteBody = z.object({ email: z.string().min(1).max(254) });
export const LoginLinkMailReply = z.object({ email: z.string(), template: z.enum(['user_reinvitation', 'community_access_granted']) });

export const MailLogQuery = z.object({ to: z.string().max(254).optional() });
export const MailLogReply = z.array(
  z.object({
    to: z.string(),
    template: z.string(),
    subject: z.string(),
    html: z.string(),
    sent_at: z.iso.datetime().describe('when the mail was recorded'),
    provider: z.string().nullable().describe('who delivered it: provider_a, provider_b, provider_c or platform (the default transport); null while pending'),
    status: z.enum(['pending', 'sending', 'sent', 'failed', 'recorded']).describe('sending: an attempt is in progress; recorded: no transport configured, the mail was only recorded'),
    delivered_at: z.iso.datetime().nullable(),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
  }),
);

export const ConfigurationKeyParams = PlatformParams.extend({ key_id: z.uuid() });
export const CreateConfigurationKeyBody = z.object({
  name: z.string().trim().min(1).max(255),
  scopes: z
    .array(z.enum(CONFIGURATION_SCOPES))
    .min(1)
    .max(CONFIGURATION_SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'scopes must not repeat'),
  expires_at: z.iso.datetime({ offset: true }).nullish().describe('ISO 8601; null or absent: no expiry'),
});
export const ConfigurationKeyReply = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.string()),
  expires_at: z.iso.datetime().nullable(),
  token: z.string().describe('The full key: shown once, only its hash is stored.'),
});
export const RevokedKeyReply = z.object({ id: z.uuid(), revoked_at: z.iso.datetime() });

export const AuditLogReply = z.array(
  z.object({ at: z.iso.datetime(), method: z.string(), path: z.string(), status: z.number().int(), key_prefix: z.string().nullable() }),
);

/** An audit log (a platform's or a shop's), newest first as read: never a token, a query or a body. */
export function auditLogReply(entries: { at: Date; method: string; path: string; status: number; keyPrefix?: string | null }[]): z.infer<typeof AuditLogReply> {
  return entries.map((e) => ({ at: e.at.toISOString(), method: e.method, path: e.path, status: e.status, key_prefix: e.keyPrefix ?? null }));
}

export const LessonCompletionBody = z.object({ email: z.string().min(1).max(254), lesson_id: z.uuid() });
export const LessonCompletionReply = z.object({ email: z.string(), lesson_id: z.uuid(), course_id: z.uuid(), completed_at: z.iso.datetime() });
export const CourseViewBody = z.object({ email: z.string().min(1).max(254), course_id: z.uuid() });
export const CourseViewReply = z.object({ email: z.string(), course_id: z.uuid(), viewed_at: z.iso.datetime().describe('the first view; a repeat keeps it') });
