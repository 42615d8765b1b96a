import type { FastifyPluginAsync } from 'fastify';
import { platformOf } from '../../../db/repositories/access/platforms.ts';
import type { ImageStore } from '../../shared/image-store.ts';
import { appearanceDocumentRoutes, type OwnFields } from './document-routes.ts';
import type { AppearanceDocument } from './documents.ts';
import {
  PLATFORM_IMAGE_FIELDS,
  PLATFORM_SETTINGS_DEFAULTS,
  PlatformSettingsPatch,
  PlatformSettingsReply,
  WELCOME_IMAGE_FIELDS,
  WELCOME_SECTION_DEFAULTS,
  WelcomeSectionPatch,
  WelcomeSectionReply,
} from './schemas.ts';

const PLATFORM_SETTINGS: AppearanceDocument = { column: 'settings', defaults: PLATFORM_SETTINGS_DEFAULTS, imageFields: PLATFORM_IMAGE_FIELDS };
const WELCOME_SECTION: AppearanceDocument = { column: 'welcome', defaults: WELCOME_SECTION_DEFAULTS, imageFields: WELCOME_IMAGE_FIELDS };

/** The title is the platform's own; "saving requires that the platform has a title" (an empty one is a 422). */
const platformTitle: OwnFields = {
  async read(em, platformId) {
    return { title: (await platformOf(em, platformId)).title };
  },
  async write(em, platformId, { title, ...rest }) {
    if (typeof title === 'string') (await platformOf(em, platformId)).title = title;
    return rest;
  },
};

/** The platform's look: `GET, PATCH /platform` and `GET, PATCH /welcome_section`. */
export const appearanceRoutes: FastifyPluginAsync<{ images: ImageStore }> = async (app, { images }) => {
  await app.register(appearanceDocumentRoutes, {
    path: '/platform',
    document: PLATFORM_SETTINGS,
    patchBody: PlatformSettingsPatch,
    reply: PlatformSettingsReply,
    images,
    ownFields: platformTitle,
    operation: { id: 'configuration.platform', subject: 'the platform settings' },
    description: 'Platform settings. Images are PNG or JPEG under 5 MB in base64, decided from the file content.',
  });
  await app.register(appearanceDocumentRoutes, {
    path: '/welcome_section',
    document: WELCOME_SECTION,
    patchBody: WelcomeSectionPatch,
    reply: WelcomeSectionReply,
    images,
    operation: { id: 'configuration.welcome_section', subject: 'the welcome section' },
    description: 'The welcome section of the platform; `welcome_cover: null` removes the cover.',
  });
};
