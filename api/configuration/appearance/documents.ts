import type { EntityManager } from '@mikro-orm/postgresql';
import { findAppearance, lockedAppearance, saveAppearanceDocument } from '../../../db/repositories/access/appearance.ts';
import { applyPatch, withDefaults } from '../../../domain/access/appearance.ts';
import type { ImageStore } from '../../shared/image-store.ts';
import type { ImageInput } from '../../shared/schemas.ts';

type Json = Record<string, unknown>;

/** One JSON document of the platform's look: the settings or the welcome section. */
export interface AppearanceDocument {
  column: 'settings' | 'welcome';
  /** Every readable field with its value when never saved (images excluded). */
  defaults: Json;
  /** Fields holding an image: stored as a file id, read back as `<field>_url`. */
  imageFields: readonly string[];
}

const isImage = (value: unknown): value is ImageInput => typeof value === 'object' && value !== null && Buffer.isBuffer((value as ImageInput).bytes);

export async function readDocument(em: EntityManager, document: AppearanceDocument): Promise<Json> {
  const appearance = await findAppearance(em);
  return appearance?.[document.column] ?? {};
}

/**
 * Applies a PATCH: only the fields sent change; an image is stored and replaces the previous one,
 * `null` removes it. Returns the saved document and the ids of the images it no longer uses,
 * to discard once the transaction has committed.
 */
export async function patchDocument(
  em: EntityManager,
  platformId: string,
  document: AppearanceDocument,
  patch: Json,
  images: ImageStore,
): Promise<{ saved: Json; replaced: string[] }> {
  const appearance = await lockedAppearance(em, platformId);
  const current = appearance[document.column];
  const values: Json = {};
  const replaced: string[] = [];
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (!document.imageFields.includes(field)) {
      values[field] = value;
      continue;
    }
    const previous = current[field];
    if (typeof previous === 'string') replaced.push(previous);
    values[field] = isImage(value) ? await images.save(em, platformId, value) : null;
  }
  const saved = applyPatch(current, values);
  await saveAppearanceDocument(em, appearance, document.column, saved);
  return { saved, replaced };
}

/** The read shape: every field (defaults where never saved) and `<image>_url` for each image field. */
export function documentReply(document: AppearanceDocument, stored: Json, fileUrl: (fileId: string) => string): Json {
  const reply = withDefaults(document.defaults, stored);
  for (const field of document.imageFields) {
    const fileId = stored[field];
    reply[`${field}_url`] = typeof fileId === 'string' ? fileUrl(fileId) : null;
  }
  return reply;
}
