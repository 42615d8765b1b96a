import { describe, expect, it } from 'vitest';
import { OrderInput } from '../../../domain/access/order-contents.ts';
import { filesOfOrder, filesOfOrders } from '../../../domain/access/order-files.ts';

const parse = (fileKeys: unknown) => OrderInput.safeParse({ email: 'a@b.co', external_id: 'x', ordered_contents: [{ file_keys: fileKeys }] });
const issuePaths = (fileKeys: unknown) => {
  const result = parse(fileKeys);
  return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
};

describe('file_keys members (issue 40 item 5)', () => {
  it('accepts a key with the named members, null ones and members not named, stored as sent', () => {
    const member = { key: 'ebook.pdf', name: 'E-book', description: null, cover_key: 'covers/ebook.png', uri: 'https://cdn.example.com/ebook.pdf', chat: { id: 5 }, extra: true };
    const result = parse([member]);
    expect(result.success && result.data.ordered_contents[0]!.file_keys).toEqual([member]);
  });

  it.each([
    ['no key', [{ name: 'E-book' }], 'ordered_contents.0.file_keys.0.key'],
    ['a blank key', [{ key: '  ' }], 'ordered_contents.0.file_keys.0.key'],
    ['a number key', [{ key: 5 }], 'ordered_contents.0.file_keys.0.key'],
    ['a relative uri', [{ key: 'k', uri: '/files/ebook.pdf' }], 'ordered_contents.0.file_keys.0.uri'],
    ['a uri with a space', [{ key: 'k', uri: 'https://x.test/a b' }], 'ordered_contents.0.file_keys.0.uri'],
    ['a javascript: uri', [{ key: 'k', uri: 'JavaScript:alert(1)' }], 'ordered_contents.0.file_keys.0.uri'],
    ['a data: uri', [{ key: 'k', uri: 'data:text/html,<b>x</b>' }], 'ordered_contents.0.file_keys.0.uri'],
    ['a number name', [{ key: 'k', name: 1 }], 'ordered_contents.0.file_keys.0.name'],
    ['a string member', ['ebook.pdf'], 'ordered_contents.0.file_keys.0'],
  ])('rejects %s, naming the member', (_label, fileKeys, path) => {
    expect(issuePaths(fileKeys)).toContain(path);
  });

  it('accepts s3: and https: uris', () => {
    expect(parse([{ key: 'a', uri: 's3://bucket/a.pdf' }, { key: 'b', uri: 'https://x.test/b.pdf' }]).success).toBe(true);
  });
});

describe('files of orders', () => {
  it('lists one file per key with the named members, null for absent ones', () => {
    expect(filesOfOrder([{ file_keys: [{ key: 'a', name: 'A', chat: 1 }] }, {}, { file_keys: [{ key: 'b', uri: 's3://b' }] }])).toEqual([
      { key: 'a', name: 'A', description: null, cover_key: null, uri: null },
      { key: 'b', name: null, description: null, cover_key: null, uri: 's3://b' },
    ]);
  });

  it('keeps a file where it first appears, described by its last appearance', () => {
    const older = [{ file_keys: [{ key: 'a', name: 'Old' }, { key: 'b' }] }];
    const newer = [{ file_keys: [{ key: 'a', name: 'New', description: 'Second edition' }] }];
    expect(filesOfOrders([older, newer])).toEqual([
      { key: 'a', name: 'New', description: 'Second edition', cover_key: null, uri: null },
      { key: 'b', name: null, description: null, cover_key: null, uri: null },
    ]);
  });

  it('skips members stored without a string key', () => {
    expect(filesOfOrder([{ file_keys: [{ name: 'no key' }, { key: 7 }] }])).toEqual([]);
  });
});
