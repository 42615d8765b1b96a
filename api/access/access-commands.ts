import type { FastifyTypeProviderDefault } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordCommandPeople } from '../../db/repositories/access/command-seq.ts';
import { pooledStatements } from '../../db/repositories/shared/pooled-transaction.ts';
import { personalEmailHasher } from '../../db/repositories/shared/personal-data/salt.ts';
import type { AccessLevel } from '../../domain/access/access-level.ts';
import {
  AudiobookGrantEntry,
  AudiobookRevokeEntry,
  CourseGrantEntry,
  CourseRevokeEntry,
  MAX_BATCH_ENTRIES,
  checkBatch,
  entriesOf,
  referencedIds,
} from '../../domain/access/grant-entries.ts';
import { badRequest } from '../shared/errors.ts';
import { platformOf } from './api-key-auth.ts';
import { ErrorBody, ValidationErrorBody } from '../shared/schemas.ts';
import { knownItemIds, type ItemKind } from '../../db/repositories/access/catalogue.ts';
import { EntryProblem, GrantQueuedReply } from './schemas.ts';

type Wrapper = 'subscriptions' | 'unsubscriptions';

interface Endpoint {
  method: 'POST' | 'DELETE';
  url: string;
  operationId: string;
  summary: string;
  kind: ItemKind;
  command: 'grant' | 'revoke';
  wrapper: Wrapper;
  entry: z.ZodObject;
  status: 200 | 204;
}

/** The four grant and revoke endpoints share one shape: validate every entry, then queue them all. */
const endpoints: Endpoint[] = [
  { method: 'POST', url: '/api/courses/subscribe', operationId: 'access.courses.subscribe', summary: 'Grants courses to users', kind: 'course', command: 'grant', wrapper: 'subscriptions', entry: CourseGrantEntry, status: 200 },
  { method: 'POST', url: '/api/audiobooks/subscribe', operationId: 'access.audiobooks.subscribe', summary: 'Grants audiobooks to users', kind: 'audiobook', command: 'grant', wrapper: 'subscriptions', entry: AudiobookGrantEntry, status: 204 },
  { method: 'DELETE', url: '/api/courses/unsubscribe', operationId: 'access.courses.unsubscribe', summary: 'Revokes courses (level 0 only)', kind: 'course', command: 'revoke', wrapper: 'unsubscriptions', entry: CourseRevokeEntry, status: 204 },
  { method: 'DELETE', url: '/api/audiobooks/unsubscribe', operationId: 'access.audiobooks.unsubscribe', summary: 'Revokes audiobooks', kind: 'audiobook', command: 'revoke', wrapper: 'unsubscriptions', entry: AudiobookRevokeEntry, status: 204 },
];

const idFieldOf = (kind: ItemKind) => (kind === 'course' ? 'course_id' : 'audiobook_id');

/** The entries of `{<wrapper>: entry | [entries]}`, or a 400 naming the field. */
function wrappedEntries(body: unknown, wrapper: Wrapper): unknown[] {
  const field = `body.${wrapper}`;
  const wrapped = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)[wrapper] : undefined;
  if (typeof wrapped !== 'object' || wrapped === null) throw badRequest('validation failed', { [field]: ['required: an entry object or an array of entries'] });
  const entries = entriesOf(wrapped);
  if (entries.length === 0) throw badRequest('validation failed', { [field]: ['must not be empty'] });
  if (entries.length > MAX_BATCH_ENTRIES) throw badRequest('validation failed', { [field]: [`at most ${MAX_BATCH_ENTRIES} entries per request`] });
  return entries;
}

export const accessCommandRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const endpoint of endpoints) {
    const { kind, wrapper, entry, command } = endpoint;
    const idField = idFieldOf(kind);
    const invalidKey = `invalid_${wrapper}`;
    const InvalidReply = z
      .object({ [invalidKey]: z.array(z.unknown()), errors: z.array(EntryProblem) })
      .describe(`Nothing of the batch was processed. \`${invalidKey}\` lists the failing entries as sent; \`errors\` says why.`);

    // Replies vary by endpoint; the zod schemas still validate and document them at run time.
    app.withTypeProvider<FastifyTypeProviderDefault>().route({
      method: endpoint.method,
      url: endpoint.url,
      // The body schema documents the entries; they are validated one by one below, on the body as
      // sent, so that the reply can list the invalid ones untouched.
      validatorCompiler: () => (value) => ({ value }),
      schema: {
        operationId: endpoint.operationId,
        summary: endpoint.summary,
        description: 'Accepts one entry object or an array of up to 1000. Work is queued durably (one Temporal workflow per entry) before the reply.',
        body: z.object({ [wrapper]: z.union([entry, z.array(entry)]) }),
        response: {
          ...(endpoint.status === 200 ? { 200: GrantQueuedReply } : { 204: z.null().describe('Queued.') }),
          400: InvalidReply.or(ValidationErrorBody),
          401: ErrorBody,
        } as Record<number, z.ZodType>,
      },
      handler: async (request, reply) => {
        const platform = platformOf(request);
        const entries = wrappedEntries(request.body, wrapper);
        // Two hot statements outside any transaction: prepared on a pooled connection.
        const sql = pooledStatements(request.em);
        const known = await knownItemIds(sql, platform.id, kind, referencedIds(entries, idField));
        const batch = checkBatch(entries, entry, idField, known);
        if (batch.invalid.length > 0) return reply.code(400).send({ [invalidKey]: batch.invalid, errors: batch.problems });

        // The address and name go to the command's row, not into the workflow input (issue 41 item 3).
        const people = batch.valid.map((e) => ({ email: String(e.email), name: (e.name as string | null | undefined) ?? null }));
        const seqs = await recordCommandPeople(sql, platform.id, people);
        const personOf = await personalEmailHasher(request.em);
        const workflowIds = await app.workflows.access.accessCommands(
          request.em,
          platform.id,
          command,
          batch.valid.map((e, i) => ({
            item: { kind, id: String(e[idField]) },
            person: personOf(people[i]!.email),
            accessLevel: e.access_level as AccessLevel | undefined,
            seq: seqs[i]!,
          })),
        );
        if (endpoint.status === 204) return reply.code(204).send();
        return { status: 'queued' as const, queued: workflowIds.length, workflow_ids: workflowIds };
      },
    });
  }
};
