/** Small helpers of the rate-limit tests: fresh client addresses and repeated requests. */
import type { LightMyRequestResponse } from 'fastify';

/** Addresses of their own for each test (`10.<net>.x.y`), so the per-address counts never meet. */
export function addressSource(net: number): () => string {
  let last = 0;
  return () => {
    last += 1;
    return `10.${net}.${Math.floor(last / 250)}.${(last % 250) + 1}`;
  };
}

/** Sends `times` requests one after the other and keeps the replies. */
export async function repeat(times: number, send: (i: number) => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse[]> {
  const replies: LightMyRequestResponse[] = [];
  for (let i = 0; i < times; i++) replies.push(await send(i));
  return replies;
}

/** The distinct status codes of the replies, in order of first appearance. */
export const statuses = (replies: LightMyRequestResponse[]) => [...new Set(replies.map((r) => r.statusCode))];
