import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform, type TestPlatform } from '../../helpers/fixtures.ts';
import { configure, createConfigurationKey } from '../../helpers/configuration.ts';
import { GIF_1X1, JPEG_1X1, upload } from '../../helpers/images.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let platform: TestPlatform;
let key: string;

beforeAll(async () => {
  stack = await startTestApp('configuration-welcome');
  platform = await createPlatform(stack.app);
  key = (await createConfigurationKey(stack.app, platform.id)).token;
});
afterAll(() => stack?.close());

const read = async () => (await configure(stack.app, 'GET', '/welcome_section', key)).json().data;
const patch = (body: unknown) => configure(stack.app, 'PATCH', '/welcome_section', key, body);

describe('GET, PATCH /welcome_section', () => {
  it('starts empty', async () => {
    expect(await read()).toEqual({
      welcome_title: null,
      welcome_text: null,
      welcome_video_url: null,
      welcome_bg_color: null,
      welcome_title_color: null,
      welcome_text_color: null,
      welcome_cover_url: null,
    });
  });

  it('saves the fields sent and keeps the others', async () => {
    const first = await patch({ welcome_title: 'Welcome!', welcome_text: '<p>Glad you are here</p>', welcome_bg_color: '#FAFAFA' });
    expect(first.statusCode).toBe(200);
    const second = await patch({ welcome_video_url: 'https://video.example.com/intro', welcome_title_color: '#101010' });
    expect(second.json().data).toEqual({
      welcome_title: 'Welcome!',
      welcome_text: '<p>Glad you are here</p>',
      welcome_video_url: 'https://video.example.com/intro',
      welcome_bg_color: '#FAFAFA',
      welcome_title_color: '#101010',
      welcome_text_color: null,
      welcome_cover_url: null,
    });
  });

  it.each([
    ['a colour that is not #RRGGBB', { welcome_text_color: 'rgb(0,0,0)' }, 'welcome_text_color'],
    ['a video link that is not a URL', { welcome_video_url: 'intro.mp4' }, 'welcome_video_url'],
    ['a GIF cover', { welcome_cover: upload(GIF_1X1, 'cover.jpg', 'image/jpeg') }, 'welcome_cover'],
  ])('refuses %s with 422', async (_label, body, field) => {
    const res = await patch(body);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual([field]);
  });

  it('stores a cover, serves it at welcome_cover_url, and welcome_cover: null removes it', async () => {
    const res = await patch({ welcome_cover: upload(JPEG_1X1, 'cover.jpg', 'image/jpeg') });
    expect(res.statusCode).toBe(200);
    const url: string = res.json().data.welcome_cover_url;
    const image = await stack.app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');

    const removed = await patch({ welcome_cover: null });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.welcome_cover_url).toBeNull();
    expect(removed.json().data.welcome_title).toBe('Welcome!');
    expect((await stack.app.inject({ method: 'GET', url: new URL(url).pathname })).statusCode).toBe(404);
  });

  it('is separate from the platform settings', async () => {
    await patch({ welcome_title: 'Only here' });
    const settings = (await configure(stack.app, 'GET', '/platform', key)).json().data;
    expect(JSON.stringify(settings)).not.toContain('Only here');
  });
});
