import { LOGIN_LINK_TAG } from './mail-templates.ts';

/** Which templates exist where, and the rules a saved template must follow (spec: configuration rules). */

/** Templates of the platform itself (`/email_templates`). */
export const PLATFORM_TEMPLATE_SLUGS = ['user_invitation', 'user_reinvitation', 'community_access_granted'] as const;

/** The platform templates that carry a fresh login link on an operator's request. */
export type LoginLinkTemplate = Extract<(typeof PLATFORM_TEMPLATE_SLUGS)[number], 'user_reinvitation' | 'community_access_granted'>;

/** A course's own invitation templates, present while its custom invitation is on. */
export const COURSE_INVITATION_SLUGS = ['course_invitation', 'course_reinvitation'] as const;

/** Rule 2: these must carry the login link tag as plain text. */
export const INVITATION_SLUGS: readonly string[] = [...PLATFORM_TEMPLATE_SLUGS, ...COURSE_INVITATION_SLUGS];

export function isPlatformTemplateSlug(slug: string): slug is (typeof PLATFORM_TEMPLATE_SLUGS)[number] {
  return (PLATFORM_TEMPLATE_SLUGS as readonly string[]).includes(slug);
}

export function isCourseInvitationSlug(slug: string): slug is (typeof COURSE_INVITATION_SLUGS)[number] {
  return (COURSE_INVITATION_SLUGS as readonly string[]).includes(slug);
}

const ESCAPED_TAG = LOGIN_LINK_TAG.replace(/[{}]/g, '\\$&');
/** The tag anywhere inside an `href` value, quoted or not. */
const TAG_IN_HREF = new RegExp(`href\\s*=\\s*(?:"[^"]*${ESCAPED_TAG}[^"]*"|'[^']*${ESCAPED_TAG}[^']*'|[^\\s>"']*${ESCAPED_TAG})`, 'i');

/**
 * Rule 2 of the configuration endpoints: an invitation body must contain `{{LINK_LOGOWANIE}}` in
 * its text, and never as a link target (the tag is replaced by the login address, which the
 * system inserts itself). Returns the problem, or null when the body is acceptable.
 */
export function loginLinkTagProblem(html: string): string | null {
  if (TAG_IN_HREF.test(html)) return `${LOGIN_LINK_TAG} must be plain text, not a link target (href)`;
  const text = html.replace(/<[^>]*>/g, ' ');
  if (!text.includes(LOGIN_LINK_TAG)) return `must contain ${LOGIN_LINK_TAG} as plain text`;
  return null;
}
