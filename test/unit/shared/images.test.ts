import { describe, expect, it } from 'vitest';
import { checkImage, decodeBase64, MAX_IMAGE_BYTES, sniffImageType } from '../../../domain/shared/images.ts';
import { GIF_1X1, JPEG_1X1, PNG_1X1, pngOfSize } from '../../helpers/images.ts';

describe('image type from the bytes', () => {
  it('recognises PNG and JPEG by their content', async () => {
    expect(await sniffImageType(PNG_1X1)).toBe('image/png');
    expect(await sniffImageType(JPEG_1X1)).toBe('image/jpeg');
  });

  it('recognises nothing else: GIF, text, an empty or truncated file', async () => {
    expect(await sniffImageType(GIF_1X1)).toBeNull();
    expect(await sniffImageType(Buffer.from('\x89PNG but text'))).toBeNull();
    expect(await sniffImageType(Buffer.alloc(0))).toBeNull();
    expect(await sniffImageType(PNG_1X1.subarray(0, 4))).toBeNull();
  });
});

describe('base64', () => {
  it('decodes standard base64, with a data URL prefix or line breaks', () => {
    expect(decodeBase64(PNG_1X1.toString('base64'))?.equals(PNG_1X1)).toBe(true);
    expect(decodeBase64(`data:image/png;base64,${PNG_1X1.toString('base64')}`)?.equals(PNG_1X1)).toBe(true);
    expect(decodeBase64(PNG_1X1.toString('base64').replace(/(.{20})/g, '$1\n'))?.equals(PNG_1X1)).toBe(true);
  });

  it('refuses what Node would silently skip', () => {
    expect(decodeBase64('%%%%')).toBeNull();
    expect(decodeBase64('abc*def')).toBeNull();
    expect(decodeBase64('A')).toBeNull();
  });

  it('handles megabytes without overflowing', () => {
    expect(decodeBase64(pngOfSize(6_000_000).toString('base64'))?.length).toBe(6_000_000);
  });
});

describe('checkImage', () => {
  it('accepts a PNG or JPEG below 5 MB with its sniffed type', async () => {
    expect(await checkImage(JPEG_1X1.toString('base64'))).toMatchObject({ ok: true, contentType: 'image/jpeg' });
    expect(await checkImage(pngOfSize(MAX_IMAGE_BYTES - 1).toString('base64'))).toMatchObject({ ok: true, contentType: 'image/png' });
  });

  it('refuses 5 MB and more', async () => {
    expect(await checkImage(pngOfSize(MAX_IMAGE_BYTES).toString('base64'))).toMatchObject({ ok: false, message: expect.stringMatching(/5 MB/) });
  });

  it('refuses a GIF and text whatever they are called', async () => {
    expect((await checkImage(GIF_1X1.toString('base64'))).ok).toBe(false);
    expect((await checkImage(Buffer.from('hello').toString('base64'))).ok).toBe(false);
  });
});
