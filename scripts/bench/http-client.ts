/**
 * The bench's own HTTP requests from its main thread (the shop parts' order lists and storefront
 * orders): `node:http` over keep-alive connections, as the load thread sends (http-load-thread.ts).
 * `fetch` costs the client 0.3-0.6 ms more a request here (WHATWG streams, a timer per signal),
 * time and CPU that counted as the API's on a 2-core machine shared with the API and PostgreSQL.
 */
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true });

/** One request: its status and body text; rejects on a network error or no reply within `timeoutMs`. */
export function httpRequest(method: string, url: string, headers: Record<string, string>, body?: string, timeoutMs = 120_000): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const all = body === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    const req = http.request(url, { method, headers: all, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${new URL(url).pathname}: no reply within ${timeoutMs / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}
