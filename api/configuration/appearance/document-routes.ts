import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { fileUrlFor } from '../../shared/file-url.ts';
import type { ImageStore } from '../../shared/image-store.ts';
import { ErrorBody, ValidationErrorBody, data, sniffImages } from '../../shared/schemas.ts';
import { configurationKeyOf } from '../auth.ts';
import { documentReply, patchDocument, readDocument, type AppearanceDocument } from './documents.ts';

type Json = Record<string, unknown>;

/** Fields kept outside the JSON document (the platform title lives on the platform). */
export interface OwnFields {
  read(em: EntityManager, platformId: string): Promise<Json>;
  /** Takes its fields out of the patch and saves them; returns the rest. */
  write(em: EntityManager, platformId: string, patch: Json): Promise<Json>;
}

export interface AppearanceDocumentRouteOptions {
  path: string;
  document: AppearanceDocument;
  patchBody: z.ZodType<Json>;
  reply: z.ZodType;
  images: ImageStore;
  ownFields?: OwnFields;
  description: string;
  /** Names in the OpenAPI document: the operationId prefix and what the summaries call the document. */
  operation: { id: string; subject: string };
}

/** Images in base64 make large bodies: up to four images under 5 MB each. */
const IMAGE_BODY_LIMIT = 32 * 1024 * 1024;
const noOwnFields: OwnFields = { read: async () => ({}), write: async (_em, _platformId, patch) => patch };

/** `GET` and `PATCH` of one part of the platform's look (`/platform`, `/welcome_section`). */
export const appearanceDocumentRoutes: FastifyPluginAsyncZod<AppearanceDocumentRouteOptions> = async (app, options) => {
  const { path, document, images, ownFields = noOwnFields } = options;
  const errors = { 401: ErrorBody, 403: ErrorBody };

  const reply = async (em: EntityManager, platformId: string, stored: Json, fileUrl: (id: string) => string) => ({
    data: { ...documentReply(document, stored, fileUrl), ...(await ownFields.read(em, platformId)) },
  });

  app.get(
    path,
    { config: { scope: 'read' }, schema: { operationId: `${options.operation.id}.read`, summary: `Reads ${options.operation.subject}`, description: options.description, response: { 200: data(options.reply), ...errors } } },
    async (request) => {
      const { platformId } = configurationKeyOf(request);
      return reply(request.em, platformId, await readDocument(request.em, document), fileUrlFor(request, platformId));
    },
  );

  app.patch(
    path,
    {
      config: { scope: 'write_appearance' },
      bodyLimit: IMAGE_BODY_LIMIT,
      schema: {
        operationId: `${options.operation.id}.update`,
        summary: `Updates ${options.operation.subject}`,
        description: options.description,
        body: options.patchBody,
        response: { 200: data(options.reply), ...errors, 413: ErrorBody, 415: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody },
      },
    },
    async (request) => {
      const { platformId } = configurationKeyOf(request);
      const { em } = request;
      const body = await sniffImages(request.body, document.imageFields);
      const { saved, replaced } = await em.transactional(async (tx) =>
        patchDocument(tx, platformId, document, await ownFields.write(tx, platformId, body), images),
      );
      await images.discard(em, platformId, replaced);
      return reply(em, platformId, saved, fileUrlFor(request, platformId));
    },
  );
};
