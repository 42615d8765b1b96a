/**
 * Default mail templates and tag rendering. A platform's customised copy (configuration
 * interface) replaces the default; both are rendered by `renderTemplate`.
 */

export const LOGIN_LINK_TAG = '{{LINK_LOGOWANIE}}';

export interface MailTemplate {
  slug: string;
  name: string;
  subject: string;
  /** HTML body. */
  description: string;
  tags: string[];
}

export interface MailTags {
  loginLink?: string;
  participantName?: string;
  participantEmail?: string;
  platformTitle?: string;
  courseTitle?: string;
}

const TAG_VALUES: Record<string, keyof MailTags> = {
  '{{LINK_LOGOWANIE}}': 'loginLink',
  '{{PARTICIPANT_NAME}}': 'participantName',
  '{{PARTICIPANT_EMAIL}}': 'participantEmail',
  '{{PLATFORM_TITLE}}': 'platformTitle',
  '{{COURSE_TITLE}}': 'courseTitle',
};

export const DEFAULT_TEMPLATES: Record<string, MailTemplate> = {
  user_invitation: {
    slug: 'user_invitation',
    name: 'Invitation of a new participant',
    subject: 'Your access to {{PLATFORM_TITLE}}',
    description:
      '<p>Hello {{PARTICIPANT_NAME}},</p><p>you now have access to {{COURSE_TITLE}} on {{PLATFORM_TITLE}}.</p>' +
      '<p>Set your password and sign in here: {{LINK_LOGOWANIE}}</p>',
    tags: Object.keys(TAG_VALUES),
  },
  user_reinvitation: {
    slug: 'user_reinvitation',
    name: 'Repeated invitation of a participant',
    subject: 'A reminder: your access to {{PLATFORM_TITLE}}',
    description: '<p>Hello {{PARTICIPANT_NAME}},</p><p>your account on {{PLATFORM_TITLE}} is waiting for you.</p><p>Sign in here: {{LINK_LOGOWANIE}}</p>',
    tags: Object.keys(TAG_VALUES),
  },
  community_access_granted: {
    slug: 'community_access_granted',
    name: 'Access to the community granted',
    subject: 'Welcome to the {{PLATFORM_TITLE}} community',
    description: '<p>Hello {{PARTICIPANT_NAME}},</p><p>you can now join the community of {{PLATFORM_TITLE}}.</p><p>Sign in here: {{LINK_LOGOWANIE}}</p>',
    tags: Object.keys(TAG_VALUES),
  },
  course_invitation: {
    slug: 'course_invitation',
    name: 'Invitation to the course (new participant)',
    subject: 'Your access to {{COURSE_TITLE}}',
    description: '<p>Hello {{PARTICIPANT_NAME}},</p><p>you now have access to {{COURSE_TITLE}}.</p><p>Set your password and sign in here: {{LINK_LOGOWANIE}}</p>',
    tags: Object.keys(TAG_VALUES),
  },
  course_reinvitation: {
    slug: 'course_reinvitation',
    name: 'Invitation to the course (existing participant)',
    subject: 'New course for you: {{COURSE_TITLE}}',
    description: '<p>Hello {{PARTICIPANT_NAME}},</p><p>{{COURSE_TITLE}} has been added to your account on {{PLATFORM_TITLE}}.</p><p>Sign in here: {{LINK_LOGOWANIE}}</p>',
    tags: Object.keys(TAG_VALUES),
  },
};

/** The tags every template may use. */
export const TEMPLATE_TAGS = Object.keys(TAG_VALUES);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Fills every known tag; values are HTML-escaped in the body, plain in the subject. */
export function renderTemplate(template: Pick<MailTemplate, 'subject' | 'description'>, tags: MailTags) {
  const fill = (text: string, escape: boolean) =>
    text.replace(/\{\{[A-Z_]+\}\}/g, (tag) => {
      const key = TAG_VALUES[tag];
      if (!key) return tag;
      const value = tags[key] ?? '';
      return escape ? escapeHtml(value) : value;
    });
  return { subject: fill(template.subject, false), html: fill(template.description, true) };
}
