import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { IPlatform } from '../../db/entities/index.ts';
import { createPlatform, findPlatform, findSandboxTwin } from '../../db/repositories/access/platforms.ts';
import { copyIntoTwin, twinCourses } from '../../db/repositories/access/sandbox.ts';
import { sandboxSubdomain } from '../../domain/access/sandbox.ts';
import { HttpError, notFound } from '../shared/errors.ts';
import { ErrorBody } from '../shared/schemas.ts';
import { issueApiKey } from './platforms.ts';
import { PlatformParams, data } from './schemas.ts';

const SandboxReply = z.object({
  id: z.uuid(),
  subdomain: z.string(),
  title: z.string(),
  sandbox_of: z.uuid(),
  courses: z.array(z.object({ id: z.uuid(), source_id: z.uuid().nullable(), slug: z.string() })).describe("the twin's courses, each with the platform's course it copies (same slug)"),
});
const CreatedSandboxReply = SandboxReply.extend({ api_key: z.string().describe("The twin's own access key: shown once.") });

async function sandboxView(em: EntityManager, twin: IPlatform, sourceId: string) {
  return { id: twin.id, subdomain: twin.subdomain, title: twin.title, sandbox_of: sourceId, courses: await twinCourses(em, twin.id, sourceId) };
}

async function liveSource(em: EntityManager, platformId: string): Promise<IPlatform> {
  const platform = await findPlatform(em, platformId);
  if (!platform) throw notFound('platform');
  if (platform.sandboxOf) throw new HttpError(409, 'this platform is itself a sandbox');
  return platform;
}

/**
 * The test environment (spec: `{beta_base_url}`, "the same paths"): a sandbox twin of a platform,
 * a platform of its own with its own keys and data, answering every path of the access and
 * configuration interfaces like the platform it copies (docs/decisions/).
 */
export const sandboxAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/platforms/:platform_id/sandbox',
    {
      schema: {
        operationId: 'admin.platforms.sandbox.create',
        summary: 'Creates the platform\'s sandbox twin',
        description: "Creates the platform's sandbox twin: a copy of its courses, audiobooks, appearance and mail templates with its own access key; no participants, orders, keys, webhooks or mail provider. 409 when the twin exists or the platform is a sandbox.",
        params: PlatformParams,
        response: { 201: data(CreatedSandboxReply), 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const source = await liveSource(request.em, request.params.platform_id);
      try {
        const created = await request.em.fork().transactional(async (tx) => {
          const twin = await createPlatform(tx, {
            subdomain: sandboxSubdomain(source.subdomain),
            title: `${source.title} (sandbox)`,
            adminEmail: source.adminEmail ?? null,
            allowedDomains: source.allowedDomains,
            sandboxOf: source.id,
          });
          await copyIntoTwin(tx, source.id, twin.id);
          return { twin, apiKey: await issueApiKey(tx, twin.id) };
        });
        return reply.code(201).send({ data: { ...(await sandboxView(request.em, created.twin, source.id)), api_key: created.apiKey } });
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException) throw new HttpError(409, 'the platform already has a sandbox (or its subdomain is taken)');
        throw error;
      }
    },
  );

  app.get(
    '/platforms/:platform_id/sandbox',
    { schema: { operationId: 'admin.platforms.sandbox.read', summary: 'Reads the platform\'s sandbox twin', description: "The platform's sandbox twin; 404 when it has none.", params: PlatformParams, response: { 200: data(SandboxReply), 404: ErrorBody, 409: ErrorBody } } },
    async (request) => {
      const source = await liveSource(request.em, request.params.platform_id);
      const twin = await findSandboxTwin(request.em, source.id);
      if (!twin) throw notFound('sandbox');
      return { data: await sandboxView(request.em, twin, source.id) };
    },
  );
};
