import type { FastifyPluginAsync } from 'fastify';
import { Platform } from '../../db/entities/index.ts';
import type { AppearanceDocument } from './appearance.ts';
import { appearanceRoutes, type OwnFields } from './appearance-routes.ts';
import type { ImageStore } from '../shared/image-store.ts';
import { PlatformSettingsPatch, PlatformSettingsReply, WelcomeSectionPatch, WelcomeSectionReply } from './schemas.ts';

const PLATFORM_SETTINGS: AppearanceDocument = {
  column: 'settings',
  defaults: {
    public_hero_title: null,
    public_hero_description: null,
    primary_color: null,
    navbar_color: null,
    navbar_font_color: null,
    social_icons_color: null,
    open_platform_enabled: false,
    login_frame_enabled: false,
    open_platform_about_enabled: false,
    open_platform_contact_enabled: false,
    open_platform_about_content: null,
    open_platform_contact_content: null,
    platform_rules: null,
    social_facebook: null,
    social_instagram: null,
    social_youtube: null,
    social_tiktok: null,
    social_linkedin: null,
    footer: { content: null },
    default_email_sender: { name: null, email: null },
    course_global_config: { video_border: false },
  },
  imageFields: ['logo', 'favicon', 'mobile_icon'],
};

const WELCOME_SECTION: AppearanceDocument = {
  column: 'welcome',
  defaults: {
    welcome_title: null,
    welcome_text: null,
    welcome_video_url: null,
    welcome_bg_color: null,
    welcome_title_color: null,
    welcome_text_color: null,
  },
  imageFields: ['welcome_cover'],
};

/** The title is the platform's own; "saving requires that the platform has a title" (an empty one is a 422). */
const platformTitle: OwnFields = {
  async read(em, platformId) {
    return { title: (await em.findOneOrFail(Platform, platformId)).title };
  },
  async write(em, platformId, { title, ...rest }) {
    if (typeof title === 'string') (await em.findOneOrFail(Platform, platformId)).title = title;
    return rest;
  },
};

/** `GET, PATCH /platform` and `GET, PATCH /welcome_section`. */
export const appearanceConfigurationRoutes: FastifyPluginAsync<{ images: ImageStore }> = async (app, { images }) => {
  await app.register(appearanceRoutes, {
    path: '/platform',
    document: PLATFORM_SETTINGS,
    patchBody: PlatformSettingsPatch,
    reply: PlatformSettingsReply,
    images,
    ownFields: platformTitle,
    description: 'Platform settings. Images are PNG or JPEG under 5 MB in base64, decided from the file content.',
  });
  await app.register(appearanceRoutes, {
    path: '/welcome_section',
    document: WELCOME_SECTION,
    patchBody: WelcomeSectionPatch,
    reply: WelcomeSectionReply,
    images,
    description: 'The welcome section of the platform; `welcome_cover: null` removes the cover.',
  });
};
