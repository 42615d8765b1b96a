/**
 * Electronic contents (product files) of one shop; the request's entity manager is scoped to it by
 * the shop filter. Several contents may share one stored file (`source_content_id`); the file row
 * is locked while a content is attached to it or taken from it, so the last content to let go of a
 * file is the one that removes it, and a copy never points at a file being removed.
 */
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ElectronicContent, ShopFile, type IElectronicContent } from '../../entities/shop/index.ts';
import { copiedSettings, definedOnly, type ContentSettings } from '../../../domain/shop/electronic-content-rules.ts';
import { unusedFiles } from './products.ts';
import type { ListWindow } from './reference.ts';

/** Bytes already put in the file storage under `storageKey`. */
export interface StoredFile {
  storageKey: string;
  filename: string;
  contentType: string;
  byteSize: number;
}

export function listContents(em: EntityManager, productId: number, window: ListWindow) {
  return em.findAndCount(ElectronicContent, { product: productId }, { populate: ['file'], orderBy: { id: 'asc' }, ...window });
}

/** A content of the product, with its file; null for an unknown id or one of another product or shop. */
export function findContent(em: EntityManager, productId: number, id: number) {
  return em.findOne(ElectronicContent, { id, product: productId }, { populate: ['file'] });
}

function settingsOf(content: IElectronicContent): ContentSettings {
  const { kind, contentTitle, daysToExpire, usagesToExpire, watermark, watermarkInterval, description, distributeViaShopCas } = content;
  return { kind, contentTitle: contentTitle ?? null, daysToExpire, usagesToExpire, watermark, watermarkInterval, description, distributeViaShopCas };
}

/** Locks the file row until the transaction ends; null when it is gone. */
function lockFile(em: EntityManager, fileId: string) {
  return em.findOne(ShopFile, { id: fileId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/** After `content` let go of `fileId`: the file row removed when nothing uses it; its storage key then, to delete after commit. */
async function releaseFile(em: EntityManager, fileId: string): Promise<string | null> {
  const file = await lockFile(em, fileId);
  if (!file) return null;
  const [unused] = await unusedFiles(em, [file]);
  if (!unused) return null;
  em.remove(unused);
  await em.flush();
  return unused.storageKey;
}

/** A new content of the product with newly uploaded bytes. */
export async function addUploadedContent(em: EntityManager, shopId: string, productId: number, stored: StoredFile, settings: Partial<ContentSettings>) {
  return em.transactional(async (tx) => {
    const file = tx.create(ShopFile, { shop: shopId, ...stored });
    const content = tx.create(ElectronicContent, { ...definedOnly(settings), shop: shopId, product: productId, file } as never);
    await tx.flush();
    return (await tx.findOneOrFail(ElectronicContent, { id: (content as IElectronicContent).id }, { populate: ['file'] })) as IElectronicContent;
  });
}

/**
 * A new content of the product on the file of `sourceId` (any visible product of the shop), its
 * settings taken from the source and overridden by those sent; null when there is no such source.
 */
export async function addCopiedContent(em: EntityManager, shopId: string, productId: number, sourceId: number, sent: Partial<ContentSettings>) {
  return em.transactional(async (tx) => {
    const source = await tx.findOne(ElectronicContent, { id: sourceId, product: { hidden: false } });
    if (!source) return null;
    // A concurrent delete of the source's last content removes the file row: then there is nothing to attach.
    const file = await lockFile(tx, source.file.id);
    if (!file) return null;
    const content = tx.create(ElectronicContent, { ...copiedSettings(settingsOf(source), sent), shop: shopId, product: productId, file } as never);
    await tx.flush();
    return (await tx.findOneOrFail(ElectronicContent, { id: (content as IElectronicContent).id }, { populate: ['file'] })) as IElectronicContent;
  });
}

/**
 * Changes the settings sent and, with `stored`, points the content at new bytes. Returns the
 * content and the storage key of a file nothing uses any more (to delete after the commit).
 */
export async function updateContent(em: EntityManager, shopId: string, contentId: number, settings: Partial<ContentSettings>, stored?: StoredFile) {
  return em.transactional(async (tx) => {
    const content = await tx.findOneOrFail(ElectronicContent, { id: contentId }, { populate: ['file'] });
    const previous = content.file.id;
    tx.assign(content, definedOnly(settings));
    if (stored) content.file = tx.create(ShopFile, { shop: shopId, ...stored }) as never;
    await tx.flush();
    const released = stored ? await releaseFile(tx, previous) : null;
    return { content: (await tx.findOneOrFail(ElectronicContent, { id: contentId }, { populate: ['file'], refresh: true })) as IElectronicContent, released };
  });
}

/** Removes the content; returns the storage key of its file when no other content (or photo) uses it. */
export async function removeContent(em: EntityManager, contentId: number): Promise<string | null> {
  return em.transactional(async (tx) => {
    const content = await tx.findOne(ElectronicContent, { id: contentId });
    if (!content) return null;
    const fileId = content.file.id;
    tx.remove(content);
    await tx.flush();
    return releaseFile(tx, fileId);
  });
}
