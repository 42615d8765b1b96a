/** A small HTTP client for end-to-end tests against a listening app. */
import type { Client } from '@temporalio/client';
import { expect } from 'vitest';
import { operator } from './fixtures.ts';
import { eventually } from './stack.ts';

export interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

export function httpClient(baseUrl: string) {
  return async function http(method: string, path: string, opts: { key?: string; body?: unknown; headers?: Record<string, string>; operator?: boolean } = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...(opts.key ? { 'x-api-key': opts.key } : {}), ...(opts.operator ? operator : {}), ...opts.headers };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl}${path}`, { method, headers, ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  };
}

/**
 * Waits until at least `count` workflows whose id starts with `prefix` exist, then for all of them
 * to finish; returns their results. Lets a test assert "nothing changed" after a 204.
 */
export async function settledWorkflows(client: Client, prefix: string, count = 1): Promise<unknown[]> {
  const ids = await eventually(async () => {
    const found: string[] = [];
    for await (const execution of client.workflow.list({ query: `WorkflowId STARTS_WITH "${prefix}"` })) found.push(execution.workflowId);
    expect(found.length).toBeGreaterThanOrEqual(count);
    return found;
  });
  return Promise.all(ids.map((id) => client.workflow.getHandle(id).result()));
}
