/** Entities of the configuration interface (keys, audit log, look, templates, lesson progress). */
import { PlatformAppearance } from './appearance.ts';
import { StoredFile } from '../shared/stored-file.ts';
import { AuditLogEntry } from '../shared/audit-log.ts';
import { ConfigurationKey } from './configuration-key.ts';
import { LessonCompletion } from './lesson-completion.ts';
import { CourseMailTemplate, PlatformMailTemplate } from './mail-template.ts';

export * from './appearance.ts';
export * from '../shared/stored-file.ts';
export * from '../shared/audit-log.ts';
export * from './configuration-key.ts';
export * from './lesson-completion.ts';
export * from './mail-template.ts';

export const configurationEntities = [
  ConfigurationKey, AuditLogEntry, PlatformAppearance, StoredFile, PlatformMailTemplate, CourseMailTemplate, LessonCompletion,
];
