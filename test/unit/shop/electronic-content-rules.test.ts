import fc from 'fast-check';
import { fileTypeFromBuffer } from 'file-type';
import { describe, expect, it } from 'vitest';
import {
  MAX_CONTENT_BASE64_LENGTH,
  MAX_CONTENT_BYTES,
  base64DecodedSize,
  copiedSettings,
  ebookTypeOf,
  isBase64,
  missingForUpload,
  type ContentSettings,
} from '../../../domain/shop/electronic-content-rules.ts';
import { epubBytes, mobiBytes, pdfBytes, zipBytes } from '../../helpers/ebooks.ts';

const typeOf = async (bytes: Buffer) => ebookTypeOf(bytes, (await fileTypeFromBuffer(bytes))?.mime)?.format ?? null;

describe('ebookTypeOf', () => {
  it('accepts PDF and EPUB as the content sniffer sees them', async () => {
    expect(await typeOf(pdfBytes())).toBe('pdf');
    expect(await typeOf(epubBytes())).toBe('epub');
  });

  it('tells MOBI from AZW3 by the MOBI header version, even when the title looks like a PDF', async () => {
    expect(await typeOf(mobiBytes(6))).toBe('mobi');
    expect(await typeOf(mobiBytes(8))).toBe('azw3');
    expect(await typeOf(mobiBytes(6, '%PDF-1.4 trick'))).toBe('mobi');
    expect(ebookTypeOf(mobiBytes(8), undefined)?.contentType).toBe('application/vnd.amazon.ebook');
  });

  it('refuses other content: a plain zip, text, PNG, a truncated Palm header', async () => {
    expect(await typeOf(zipBytes([['a.txt', 'hello']]))).toBeNull();
    expect(await typeOf(Buffer.from('just some text'))).toBeNull();
    expect(await typeOf(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'))).toBeNull();
    expect(await typeOf(mobiBytes().subarray(0, 66))).toBeNull();
    expect(ebookTypeOf(new Uint8Array(), 'application/x-msdownload')).toBeNull();
  });
});

describe('base64DecodedSize', () => {
  it('is the decoded length of any bytes, padded or not, with a data URL prefix or line breaks', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), fc.boolean(), (bytes, unpadded, wrapped) => {
        let text = Buffer.from(bytes).toString('base64');
        if (unpadded) text = text.replace(/=+$/, '');
        if (wrapped) text = `data:application/pdf;base64,${text.replace(/.{1,76}/g, '$&\r\n')}`;
        expect(base64DecodedSize(text)).toBe(bytes.length);
        if (bytes.length > 0) expect(isBase64(text)).toBe(true);
      }),
    );
  });

  it('puts the limit at exactly 50 MB: the longest accepted text decodes to at most 52428800 bytes', () => {
    expect(MAX_CONTENT_BYTES).toBe(52_428_800);
    expect(base64DecodedSize('A'.repeat(MAX_CONTENT_BASE64_LENGTH - 4) + 'AA==')).toBeLessThanOrEqual(MAX_CONTENT_BYTES);
    expect(base64DecodedSize('A'.repeat(MAX_CONTENT_BASE64_LENGTH + 4))).toBeGreaterThan(MAX_CONTENT_BYTES);
  });
});

describe('isBase64', () => {
  it('refuses what Node would silently skip', () => {
    for (const text of ['', 'ab$d', 'abcde', 'ab=c', 'a\u0000bc', 'YWJj===']) expect(isBase64(text), JSON.stringify(text)).toBe(false);
    expect(isBase64('YWJj')).toBe(true);
  });
});

describe('copiedSettings and missingForUpload', () => {
  const source: ContentSettings = {
    kind: 'normal',
    contentTitle: 'Title',
    daysToExpire: 30,
    usagesToExpire: 3,
    watermark: '{{EMAIL}}',
    watermarkInterval: 2,
    description: 'd',
    distributeViaShopCas: true,
  };

  it('a copy keeps the source settings and the fields sent override them', () => {
    expect(copiedSettings(source, { daysToExpire: 7, watermark: undefined })).toEqual({ ...source, daysToExpire: 7 });
  });

  it('an upload needs days_to_expire and usages_to_expire', () => {
    expect(missingForUpload({})).toEqual(['daysToExpire', 'usagesToExpire']);
    expect(missingForUpload({ daysToExpire: 1, usagesToExpire: 1 })).toEqual([]);
  });
});
