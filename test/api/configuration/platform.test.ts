import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../../../domain/shared/images.ts';
import { createPlatform, type TestPlatform } from '../../helpers/fixtures.ts';
import { configure, createConfigurationKey } from '../../helpers/configuration.ts';
import { GIF_1X1, JPEG_1X1, PNG_1X1, pngOfSize, upload } from '../../helpers/images.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let platform: TestPlatform;
let key: string;

beforeAll(async () => {
  stack = await startTestApp('configuration-platform');
  platform = await createPlatform(stack.app, 'Look academy');
  key = (await createConfigurationKey(stack.app, platform.id)).token;
});
afterAll(() => stack?.close());

const read = async () => (await configure(stack.app, 'GET', '/platform', key)).json().data;
const patch = (body: unknown) => configure(stack.app, 'PATCH', '/platform', key, body);

/** Fetches an image URL of a reply from the same app. */
async function fetchImage(url: string) {
  const { pathname } = new URL(url);
  return stack.app.inject({ method: 'GET', url: pathname });
}

describe('GET /platform', () => {
  it('returns every field of the spec, with defaults before anything is saved', async () => {
    const fresh = await createPlatform(stack.app, 'Fresh');
    const res = await configure(stack.app, 'GET', '/platform', (await createConfigurationKey(stack.app, fresh.id, ['read'])).token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      title: 'Fresh',
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
      logo_url: null,
      favicon_url: null,
      mobile_icon_url: null,
    });
  });
});

describe('PATCH /platform', () => {
  it('saves every kind of field and returns the whole settings', async () => {
    const sent = {
      title: 'New title',
      public_hero_title: 'Learn with us',
      primary_color: '#A1B2C3',
      open_platform_enabled: true,
      open_platform_about_content: '<h1>About</h1><script>alert(1)</script>',
      social_youtube: 'https://youtube.com/@academy',
      footer: { content: '<p>Footer</p>' },
      default_email_sender: { name: 'Academy', email: 'hello@academy.test' },
      course_global_config: { video_border: true },
    };
    const res = await patch(sent);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject(sent);
    expect(await read()).toEqual(res.json().data);
    const self = await configure(stack.app, 'GET', '/self', key);
    expect(self.json().data.platform.title).toBe('New title');
  });

  it('changes only the fields sent, also inside objects', async () => {
    await patch({ navbar_color: '#000000', social_facebook: 'https://facebook.com/a', default_email_sender: { name: 'Before', email: 'keep@academy.test' } });
    const before = await read();
    const res = await patch({ navbar_color: '#FFFFFF', default_email_sender: { name: 'After' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ ...before, navbar_color: '#FFFFFF', default_email_sender: { name: 'After', email: 'keep@academy.test' } });
  });

  it('clears a link with null or an empty string', async () => {
    await patch({ social_tiktok: 'https://tiktok.com/@a', social_linkedin: 'https://linkedin.com/a' });
    const res = await patch({ social_tiktok: null, social_linkedin: '' });
    expect(res.json().data).toMatchObject({ social_tiktok: null, social_linkedin: null });
  });

  it.each([
    ['a colour name', { primary_color: 'red' }, 'primary_color'],
    ['a short colour', { navbar_font_color: '#FFF' }, 'navbar_font_color'],
    ['a colour without #', { social_icons_color: '112233' }, 'social_icons_color'],
    ['a relative link', { social_instagram: '/me' }, 'social_instagram'],
    ['a javascript: link', { social_facebook: 'javascript:alert(1)' }, 'social_facebook'],
    ['an empty title', { title: '  ' }, 'title'],
    ['a null title', { title: null }, 'title'],
    ['a non-boolean switch', { login_frame_enabled: 'true' }, 'login_frame_enabled'],
    ['an unknown footer member', { footer: { html: 'x' } }, 'footer.html'],
    ['a bad sender e-mail', { default_email_sender: { email: 'x' } }, 'default_email_sender.email'],
  ])('refuses %s with 422 and saves nothing', async (_label, body, field) => {
    const before = await read();
    const res = await patch({ ...body, public_hero_title: 'must not be saved' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual([field]);
    expect(await read()).toEqual(before);
  });
});

describe('images', () => {
  it('accepts a real PNG and a real JPEG and serves them back at logo_url and favicon_url', async () => {
    const res = await patch({ logo: upload(PNG_1X1), favicon: upload(JPEG_1X1, 'icon.jpg', 'image/jpeg') });
    expect(res.statusCode, res.body).toBe(200);
    const { logo_url, favicon_url } = res.json().data;
    expect(logo_url).toMatch(new RegExp(`^http://[^/]+/files/${platform.id}/[0-9a-f-]{36}$`));

    const logo = await fetchImage(logo_url);
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.rawPayload.equals(PNG_1X1)).toBe(true);
    const favicon = await fetchImage(favicon_url);
    expect(favicon.headers['content-type']).toBe('image/jpeg');
    expect(favicon.rawPayload.equals(JPEG_1X1)).toBe(true);
    expect((await read()).logo_url).toBe(logo_url);
  });

  it('decides the type from the bytes: a JPEG labelled image/png is served as image/jpeg', async () => {
    const res = await patch({ mobile_icon: upload(JPEG_1X1, 'icon.png', 'image/png') });
    expect(res.statusCode).toBe(200);
    expect((await fetchImage(res.json().data.mobile_icon_url)).headers['content-type']).toBe('image/jpeg');
  });

  it.each([
    ['a GIF renamed to .png', upload(GIF_1X1, 'logo.png', 'image/png')],
    ['a text file labelled image/png', upload(Buffer.from('just some text, not an image'), 'logo.png', 'image/png')],
    ['an image of exactly 5 MB', upload(pngOfSize(MAX_IMAGE_BYTES))],
    ['an image above 5 MB', upload(pngOfSize(MAX_IMAGE_BYTES + 1))],
    ['data that is not base64', { filename: 'logo.png', content_type: 'image/png', data: '%%% not base64 %%%' }],
    ['an image without data', { filename: 'logo.png', content_type: 'image/png' }],
  ])('refuses %s with 422 naming the field', async (_label, logo) => {
    const before = await read();
    const res = await patch({ logo });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)[0]).toMatch(/^logo/);
    expect((await read()).logo_url).toBe(before.logo_url);
  });

  it('accepts an image just under 5 MB', async () => {
    const res = await patch({ favicon: upload(pngOfSize(MAX_IMAGE_BYTES - 1)) });
    expect(res.statusCode).toBe(200);
  });

  it('replacing an image retires the old file; null removes the image', async () => {
    const first = (await patch({ logo: upload(PNG_1X1) })).json().data.logo_url;
    const second = (await patch({ logo: upload(JPEG_1X1, 'logo.jpg') })).json().data.logo_url;
    expect(second).not.toBe(first);
    expect((await fetchImage(first)).statusCode).toBe(404);
    expect((await fetchImage(second)).statusCode).toBe(200);
    const removed = await patch({ logo: null });
    expect(removed.json().data.logo_url).toBeNull();
    expect((await fetchImage(second)).statusCode).toBe(404);
  });

  it("an image is not served under another platform's id", async () => {
    const url = (await patch({ logo: upload(PNG_1X1) })).json().data.logo_url as string;
    const other = await createPlatform(stack.app);
    const foreign = new URL(url).pathname.replace(platform.id, other.id);
    expect((await stack.app.inject({ method: 'GET', url: foreign })).statusCode).toBe(404);
  });
});
