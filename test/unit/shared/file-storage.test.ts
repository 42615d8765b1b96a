import { createHash, createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStorage } from '../../../adapters/file-storage/index.ts';
import { fileStorageFrom } from '../../../adapters/file-storage/index.ts';
import { localFileStorage } from '../../../adapters/file-storage/local.ts';
import { s3FileStorage } from '../../../adapters/file-storage/s3.ts';

const ACCESS_KEY = 'AKIDTEST';
const SECRET = 'test-secret-key';
const REGION = 'eu-test-1';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/**
 * A tiny S3 stand-in: one bucket in memory, PUT/GET/DELETE of objects, and a Signature Version 4
 * check written here from the AWS description (not with the signing library under test).
 */
function startS3StandIn() {
  const objects = new Map<string, Buffer>();
  const requests: { method: string; chunked: boolean; payloadHash: string }[] = [];

  function signatureProblem(req: http.IncomingMessage, body: Buffer): string | null {
    const auth = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      req.headers.authorization ?? '',
    );
    if (!auth) return 'no signature';
    const [, accessKey, day, region, signedHeaders, signature] = auth;
    if (accessKey !== ACCESS_KEY || region !== REGION) return 'wrong credential scope';
    const payloadHash = String(req.headers['x-amz-content-sha256']);
    if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body)) return 'payload hash mismatch';
    const amzDate = String(req.headers['x-amz-date']);
    const names = signedHeaders!.split(';');
    if (!names.includes('host') || !names.includes('x-amz-date') || !names.includes('x-amz-content-sha256')) return 'headers not signed';
    const canonicalHeaders = names.map((name) => `${name}:${String(req.headers[name]).trim()}\n`).join('');
    const [pathname, query = ''] = req.url!.split('?');
    const canonicalRequest = [req.method, pathname, query, canonicalHeaders, signedHeaders, payloadHash].join('\n');
    const scope = `${day}/${region}/s3/aws4_request`;
    const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
    const key = hmac(hmac(hmac(hmac(`AWS4${SECRET}`, day!), region!), 's3'), 'aws4_request');
    return createHmac('sha256', key).update(stringToSign).digest('hex') === signature ? null : 'signature mismatch';
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    requests.push({ method: req.method!, chunked: req.headers['transfer-encoding'] !== undefined, payloadHash: String(req.headers['x-amz-content-sha256']) });
    const problem = signatureProblem(req, body);
    if (problem) return res.writeHead(403).end(`<Error><Code>SignatureDoesNotMatch</Code><Message>${problem}</Message></Error>`);
    const key = decodeURIComponent(req.url!.split('?')[0]!);
    if (!key.startsWith('/prefix/books/')) return res.writeHead(404).end('<Error><Code>NoSuchBucket</Code></Error>');
    if (req.method === 'PUT') {
      if (req.headers['content-length'] === undefined) return res.writeHead(411).end();
      objects.set(key, body);
      return res.writeHead(200).end();
    }
    const stored = objects.get(key);
    if (req.method === 'GET') return stored ? res.writeHead(200).end(stored) : res.writeHead(404).end('<Error><Code>NoSuchKey</Code></Error>');
    if (req.method === 'DELETE') {
      objects.delete(key);
      return res.writeHead(204).end();
    }
    return res.writeHead(405).end();
  });
  return { server, objects, requests };
}

let standIn: ReturnType<typeof startS3StandIn>;
let endpoint: string;
let folder: string;

beforeAll(async () => {
  standIn = startS3StandIn();
  await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(standIn.server.address() as AddressInfo).port}/prefix`;
  folder = await mkdtemp(path.join(tmpdir(), 'file-storage-'));
});
afterAll(async () => {
  await new Promise((resolve) => standIn.server.close(resolve));
  await rm(folder, { recursive: true, force: true });
});

const s3 = (secretAccessKey = SECRET) => s3FileStorage({ endpoint, bucket: 'books', accessKeyId: ACCESS_KEY, secretAccessKey, region: REGION });
const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
const streamOf = (data: Buffer) => Readable.from((function* () { for (let at = 0; at < data.length; at += 65_536) yield data.subarray(at, at + 65_536); })());

async function readAll(stream: Readable | null): Promise<Buffer | null> {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe.each([
  ['local folder', () => localFileStorage(folder)],
  ['S3 stand-in', () => s3()],
])('file storage: %s', (_name, make: () => FileStorage) => {
  it('stores a Buffer and a stream, reads them whole and streamed, deletes, and answers null for a missing key', async () => {
    const storage = make();
    await storage.put('shop/s1/a', bytes, bytes.length, 'application/pdf');
    await storage.put('shop/s1/b', streamOf(bytes), bytes.length, 'application/pdf');
    expect((await storage.get('shop/s1/a'))?.equals(bytes)).toBe(true);
    expect((await readAll(await storage.stream('shop/s1/b')))?.equals(bytes)).toBe(true);
    await storage.delete('shop/s1/a');
    expect(await storage.get('shop/s1/a')).toBeNull();
    expect(await storage.stream('shop/s1/a')).toBeNull();
    await storage.delete('shop/s1/never-stored');
  });
});

describe('S3 file storage', () => {
  it('signs every request; a stream goes with its length and UNSIGNED-PAYLOAD, never chunked', async () => {
    standIn.requests.length = 0;
    await s3().put('shop/s2/x', streamOf(bytes), bytes.length, 'application/epub+zip');
    await s3().put('shop/s2/y', bytes, bytes.length, 'application/epub+zip');
    expect(standIn.requests).toEqual([
      { method: 'PUT', chunked: false, payloadHash: 'UNSIGNED-PAYLOAD' },
      { method: 'PUT', chunked: false, payloadHash: sha256(bytes) },
    ]);
    expect(standIn.objects.get('/prefix/books/shop/s2/x')?.equals(bytes)).toBe(true);
  });

  it('fails loudly when the store refuses (a wrong secret)', async () => {
    await expect(s3('wrong').put('shop/s3/x', bytes, bytes.length, 'application/pdf')).rejects.toThrow(/403/);
    await expect(s3('wrong').get('shop/s3/x')).rejects.toThrow(/403/);
  });

  it('is chosen by S3_BUCKET; the folder otherwise', async () => {
    const config = { STORAGE_DIR: folder, S3_REGION: REGION };
    const chosen = fileStorageFrom({ ...config, S3_BUCKET: 'books', S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: ACCESS_KEY, S3_SECRET_ACCESS_KEY: SECRET });
    await chosen.put('shop/s4/z', bytes, bytes.length, 'application/pdf');
    expect(standIn.objects.has('/prefix/books/shop/s4/z')).toBe(true);
    expect(() => fileStorageFrom({ ...config, S3_BUCKET: 'books' })).toThrow(/S3_ENDPOINT/);
    await fileStorageFrom(config).put('shop/s4/local', bytes, bytes.length, 'application/pdf');
    expect((await localFileStorage(folder).get('shop/s4/local'))?.length).toBe(bytes.length);
  });
});
