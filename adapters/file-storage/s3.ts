import aws4 from 'aws4';
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStorage } from './file-storage.ts';

/** `S3_*` of the environment: an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, ...), path-style addressing. */
export interface S3Settings {
  /** `https://s3.eu-central-1.amazonaws.com`, `http://127.0.0.1:9000`; a path after the host is kept as a prefix. */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** Milliseconds without any progress on a request before it fails; 60 s when unset. */
  idleTimeoutMs?: number;
}

interface S3Response {
  status: number;
  body: Readable;
}

/**
 * The file storage on an S3-compatible bucket, with requests signed by AWS Signature Version 4.
 * Uploads stream: a Buffer body is signed with its SHA-256, a stream is sent with a known length
 * and `UNSIGNED-PAYLOAD` (the transport's TLS protects it), so no upload is held in memory twice.
 */
export function s3FileStorage(settings: S3Settings): FileStorage {
  const endpoint = new URL(settings.endpoint);
  const client = endpoint.protocol === 'https:' ? https : http;
  const prefix = endpoint.pathname.replace(/\/+$/, '');
  const credentials = { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey };
  const objectPath = (key: string) => `${prefix}/${encodeURIComponent(settings.bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`;

  const send = (method: string, key: string, headers: Record<string, string | number> = {}, body?: Buffer | Readable) =>
    new Promise<S3Response>((resolve, reject) => {
      const signed = aws4.sign(
        { host: endpoint.host, path: objectPath(key), method, service: 's3', region: settings.region, headers, ...(Buffer.isBuffer(body) ? { body } : {}) },
        credentials,
      );
      const request = client.request(
        { protocol: endpoint.protocol, hostname: endpoint.hostname, port: endpoint.port, method, path: signed.path, headers: signed.headers },
        (response) => resolve({ status: response.statusCode ?? 0, body: response }),
      );
      request.setTimeout(settings.idleTimeoutMs ?? 60_000, () => request.destroy(new Error(`S3 ${method} ${key}: no progress`)));
      request.on('error', reject);
      if (body === undefined) request.end();
      else if (Buffer.isBuffer(body)) request.end(body);
      else pipeline(body, request).catch((error: unknown) => request.destroy(error as Error));
    });

  const failure = async (method: string, key: string, response: S3Response) => {
    let text = '';
    for await (const chunk of response.body) if (text.length < 2000) text += String(chunk);
    return new Error(`S3 ${method} ${key} answered ${response.status}: ${text.slice(0, 500)}`);
  };
  const discard = (response: S3Response) => response.body.resume();

  return {
    async put(key, body, byteSize, contentType) {
      const headers: Record<string, string | number> = { 'Content-Length': byteSize, 'Content-Type': contentType };
      if (!Buffer.isBuffer(body)) headers['X-Amz-Content-Sha256'] = 'UNSIGNED-PAYLOAD';
      const response = await send('PUT', key, headers, body);
      if (response.status !== 200) throw await failure('PUT', key, response);
      discard(response);
    },
    async get(key) {
      const stream = await this.stream(key);
      if (!stream) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    async stream(key) {
      const response = await send('GET', key);
      if (response.status === 404) {
        discard(response);
        return null;
      }
      if (response.status !== 200) throw await failure('GET', key, response);
      return response.body;
    },
    async delete(key) {
      const response = await send('DELETE', key);
      if (response.status !== 204 && response.status !== 200 && response.status !== 404) throw await failure('DELETE', key, response);
      discard(response);
    },
  };
}
