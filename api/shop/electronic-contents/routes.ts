import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { IElectronicContent, IProduct } from '../../../db/entities/shop/index.ts';
import {
  addCopiedContent,
  addUploadedContent,
  findContent,
  listContents,
  removeContent,
  updateContent,
  type StoredFile,
} from '../../../db/repositories/shop/electronic-contents.ts';
import { findProduct } from '../../../db/repositories/shop/products.ts';
import { missingForUpload, type ContentSettings } from '../../../domain/shop/electronic-content-rules.ts';
import { pathId } from '../../../domain/shop/product-rules.ts';
import { notFound } from '../../shared/errors.ts';
import { PageQuery, pageMeta, pageOf, pageWindow } from '../../shared/pagination.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { fieldErrorMap, unprocessable } from '../../shared/validation-errors.ts';
import { shopKeyOf } from '../auth.ts';
import {
  ContentParams,
  CreateContentBody,
  DeletedContentReply,
  ElectronicContentReply,
  OneContentParams,
  PatchContentBody,
  type CreateContent,
  type PatchContent,
} from './schemas.ts';
import { CONTENT_BODY_LIMIT, NOT_AN_EBOOK, checkFileEnvelope, decodeEbook, storeEbook } from './upload.ts';

const SNAKE_TO_SETTING = {
  kind: 'kind',
  content_title: 'contentTitle',
  days_to_expire: 'daysToExpire',
  usages_to_expire: 'usagesToExpire',
  watermark: 'watermark',
  watermark_interval: 'watermarkInterval',
  description: 'description',
  distribute_via_shop_cas: 'distributeViaShopCas',
} as const satisfies Record<string, keyof ContentSettings>;
const SETTING_TO_SNAKE = Object.fromEntries(Object.entries(SNAKE_TO_SETTING).map(([snake, camel]) => [camel, snake])) as Record<keyof ContentSettings, string>;

function settingsSent(body: CreateContent | PatchContent): Partial<ContentSettings> {
  const sent: Record<string, unknown> = {};
  for (const [snake, camel] of Object.entries(SNAKE_TO_SETTING)) sent[camel] = body[snake as keyof typeof SNAKE_TO_SETTING];
  return sent as Partial<ContentSettings>;
}

function contentReply(content: IElectronicContent) {
  const file = content.file.getEntity();
  return {
    id: content.id,
    kind: content.kind,
    content_title: content.contentTitle ?? null,
    days_to_expire: content.daysToExpire,
    usages_to_expire: content.usagesToExpire,
    watermark: content.watermark,
    watermark_interval: content.watermarkInterval,
    description: content.description,
    distribute_via_shop_cas: content.distributeViaShopCas,
    file: { filename: file.filename, content_type: file.contentType, byte_size: file.byteSize },
    created_at: content.createdAt.toISOString(),
  };
}

async function productOr404(em: EntityManager, segment: string): Promise<IProduct> {
  const id = pathId(segment);
  const product = id === null ? null : await findProduct(em, id);
  if (!product) throw notFound('product');
  return product;
}

async function contentOr404(em: EntityManager, product: IProduct, segment: string): Promise<IElectronicContent> {
  const id = pathId(segment);
  const content = id === null ? null : await findContent(em, product.id, id);
  if (!content) throw notFound('electronic content');
  return content;
}

/** The file sent, decoded into the storage; 422 naming `file` when it is not an accepted e-book. */
async function storedUpload(request: FastifyRequest, file: { filename: string; data: string }): Promise<StoredFile> {
  const upload = await decodeEbook(file.data);
  if (!upload) throw unprocessable({ file: [NOT_AN_EBOOK] });
  return storeEbook(request.server.fileStorage, shopKeyOf(request).shopId, file.filename, upload);
}

/** Deletes bytes after the rows that pointed at them are gone; a failure leaves an orphan, never a dangling row. */
async function discardBytes(request: FastifyRequest, storageKey: string | null) {
  if (!storageKey) return;
  await request.server.fileStorage.delete(storageKey).catch((error: unknown) => request.log.warn({ err: error, storageKey }, 'stored file not deleted'));
}

/**
 * Product files (spec: Product files). Reads need `read`; adding, changing and deleting need
 * `write_data` (docs/decisions/, "Product files"). The writes take bodies up to a 50 MB file in
 * base64; Fastify refuses a larger body with 413 while reading it (a larger Content-Length before
 * reading anything). Per write, in order: 404 for the product (and content), 400 for the file
 * envelope, 413 for a file over 50 MB, then 422 for the fields and the content type.
 */
export const electronicContentRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = { scope: 'read' } as const;
  const write = { scope: 'write_data' } as const;
  const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };
  const writeErrors = { ...errors, 400: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ValidationErrorBody };
  const path = '/products/:product_id/electronic_contents';

  app.get(
    path,
    { config: read, schema: { operationId: 'shop.products.electronic_contents.list', summary: 'Lists a product\'s files', params: ContentParams, querystring: PageQuery, response: { 200: pageOf(ElectronicContentReply), ...errors } } },
    async (request) => {
      const product = await productOr404(request.em, request.params.product_id);
      const [rows, total] = await listContents(request.em, product.id, pageWindow(request.query));
      return { data: rows.map(contentReply), meta: pageMeta(request.query, total) };
    },
  );

  app.post(
    path,
    {
      config: write,
      bodyLimit: CONTENT_BODY_LIMIT,
      // Before the schema: the product (404), then the file envelope (400) and size (413).
      preValidation: async (request) => {
        await productOr404(request.em, (request.params as { product_id: string }).product_id);
        checkFileEnvelope(request.body, true);
      },
      schema: {
        operationId: 'shop.products.electronic_contents.create',
        summary: 'Adds a file to a product',
        description: 'Adds a file (`file`, base64) or attaches the file of another content of the shop (`source_content_id`).',
        params: ContentParams,
        body: CreateContentBody,
        response: { 201: data(ElectronicContentReply), ...writeErrors },
      },
    },
    async (request, reply) => {
      const { em, body } = request;
      const { shopId } = shopKeyOf(request);
      const product = await productOr404(em, request.params.product_id);
      const sent = settingsSent(body);
      let content: IElectronicContent | null;
      if (body.file) {
        const problems = fieldErrorMap();
        for (const field of missingForUpload(sent)) problems[SETTING_TO_SNAKE[field]] = ['is required with a file'];
        if (Object.keys(problems).length > 0) throw unprocessable(problems);
        const stored = await storedUpload(request, body.file);
        try {
          content = await addUploadedContent(em, shopId, product.id, stored, sent);
        } catch (error) {
          await discardBytes(request, stored.storageKey);
          throw error;
        }
      } else {
        content = await addCopiedContent(em, shopId, product.id, body.source_content_id!, sent);
        if (!content) throw unprocessable({ source_content_id: ['is not a file of a product of this shop'] });
      }
      return reply.code(201).send({ data: contentReply(content) });
    },
  );

  app.patch(
    `${path}/:id`,
    {
      config: write,
      bodyLimit: CONTENT_BODY_LIMIT,
      preValidation: async (request) => {
        const params = request.params as { product_id: string; id: string };
        await contentOr404(request.em, await productOr404(request.em, params.product_id), params.id);
        checkFileEnvelope(request.body, false);
      },
      schema: {
        operationId: 'shop.products.electronic_contents.update',
        summary: 'Updates a product file',
        description: 'Changes the settings sent; `file` replaces the file itself (the old bytes are deleted when no other content uses them).',
        params: OneContentParams,
        body: PatchContentBody,
        response: { 200: data(ElectronicContentReply), ...writeErrors },
      },
    },
    async (request) => {
      const { em, body } = request;
      const { shopId } = shopKeyOf(request);
      const content = await contentOr404(em, await productOr404(em, request.params.product_id), request.params.id);
      const stored = body.file ? await storedUpload(request, body.file) : undefined;
      try {
        const updated = await updateContent(em, shopId, content.id, settingsSent(body), stored);
        await discardBytes(request, updated.released);
        return { data: contentReply(updated.content) };
      } catch (error) {
        if (stored) await discardBytes(request, stored.storageKey);
        throw error;
      }
    },
  );

  app.delete(
    `${path}/:id`,
    {
      config: write,
      schema: {
        operationId: 'shop.products.electronic_contents.delete',
        summary: 'Deletes a product file',
        description: 'Removes the file from the product; download codes issued for it stop working (their link answers 410). The stored bytes go when no other content uses them.',
        params: OneContentParams,
        response: { 200: data(DeletedContentReply), ...errors },
      },
    },
    async (request) => {
      const { em } = request;
      const content = await contentOr404(em, await productOr404(em, request.params.product_id), request.params.id);
      await discardBytes(request, await removeContent(em, content.id));
      return { data: { id: content.id, deleted: true as const } };
    },
  );
};
