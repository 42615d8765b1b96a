/** Small e-book files for tests: the few bytes each type is recognised by, built in memory. */
import { crc32 } from 'node:zlib';

/** A PDF-like file of exactly `size` bytes: the `%PDF-1.4` header, then spaces. */
export function pdfBytes(size = 1000): Buffer {
  const bytes = Buffer.alloc(size, 0x20);
  bytes.write('%PDF-1.4\n', 0, 'latin1');
  return bytes;
}

/** A stored (uncompressed) zip of the given entries, local headers only: enough for content sniffing. */
export function zipBytes(entries: [name: string, content: string][]): Buffer {
  const parts: Buffer[] = [];
  for (const [name, text] of entries) {
    const fileName = Buffer.from(name);
    const content = Buffer.from(text);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(10, 4);
    header.writeUInt32LE(crc32(content), 14);
    header.writeUInt32LE(content.length, 18);
    header.writeUInt32LE(content.length, 22);
    header.writeUInt16LE(fileName.length, 26);
    parts.push(header, fileName, content);
  }
  return Buffer.concat(parts);
}

/** An EPUB: a zip whose first entry is `mimetype` holding `application/epub+zip`. */
export function epubBytes(): Buffer {
  return zipBytes([
    ['mimetype', 'application/epub+zip'],
    ['META-INF/container.xml', '<?xml version="1.0"?><container version="1.0"/>'],
  ]);
}

/**
 * A Palm database book (`BOOKMOBI` at offset 60) with one record whose MOBI header says `version`
 * (8: a KF8-only book, AZW3). `title` fills the first bytes, as a real book's name does.
 */
export function mobiBytes(version = 6, title = 'A book'): Buffer {
  const bytes = Buffer.alloc(400);
  bytes.write(title.slice(0, 31), 0, 'latin1');
  bytes.write('BOOKMOBI', 60, 'latin1');
  bytes.writeUInt16BE(1, 76);
  const record0 = 86;
  bytes.writeUInt32BE(record0, 78);
  bytes.write('MOBI', record0 + 16, 'latin1');
  bytes.writeUInt32BE(232, record0 + 20);
  bytes.writeUInt32BE(version, record0 + 36);
  return bytes;
}
