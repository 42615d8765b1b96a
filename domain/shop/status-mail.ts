import { escapeHtml, fillTags } from './mail-tags.ts';

/**
 * The mail template of an order status (spec: Order status configuration), as stored in
 * `shop_order_statuses.email`, and the pure rules of its delivery-type substitution blocks
 * (Endpoints > Order status configuration, rule 4) and of composing a real or test mail.
 */
export interface SubstitutionBlock {
  name: string;
  delivery_type_id: number;
  content: string;
}

export interface StatusMailTemplate {
  subject: string;
  content: string;
  electronic_order_substitution_content: string | null;
  delivery_type_substitutions: SubstitutionBlock[];
}

/** A block as sent in a PATCH: `name` for an existing block, none for a new one. */
export interface SentBlock {
  name?: string;
  delivery_type_id?: number;
  content?: string;
}

export const blockTag = (name: string) => `{{${name}}}`;

const BLOCK_NAME = /^DOSTAWA_(\d+)_(\d+)$/;

/**
 * The name of a new block of a delivery: `DOSTAWA_<delivery_type_id>_<n>`, n one above the highest
 * number that delivery has among `taken` (the blocks before the write and those named in it), so a
 * number is never given again within one write and a deleted block's tag never comes back to life.
 */
export function nextBlockName(deliveryTypeId: number, taken: readonly string[]): string {
  let highest = 0;
  for (const name of taken) {
    const match = BLOCK_NAME.exec(name);
    if (match && Number(match[1]) === deliveryTypeId) highest = Math.max(highest, Number(match[2]));
  }
  return `DOSTAWA_${deliveryTypeId}_${highest + 1}`;
}

/** Removes every `{{NAME}}` of `names` (spaces inside the braces allowed, as fillTags reads them). */
export function removeTags(text: string, names: readonly string[]): string {
  if (names.length === 0) return text;
  const wanted = new Set(names);
  return text.replace(/\{\{\s*([A-Z0-9_]+)\s*\}\}/g, (whole, name: string) => (wanted.has(name) ? '' : whole));
}

export type BlocksResult = { ok: true; blocks: SubstitutionBlock[]; removed: string[] } | { ok: false; errors: Record<string, string[]> };

/**
 * Rule 4: `sent` is the complete new list. A block with an existing name changes that block (its
 * content; its delivery cannot move); one without a name is created for `delivery_type_id`; a
 * current block left out is deleted (`removed`, so the caller drops its tag). Every problem is
 * reported, keyed `delivery_type_substitutions[.<i>.<field>]`; any problem means no change.
 */
export function applySubstitutionBlocks(current: readonly SubstitutionBlock[], sent: unknown, shopDeliveryTypeIds: ReadonlySet<number>): BlocksResult {
  const field = 'email.delivery_type_substitutions';
  if (!Array.isArray(sent)) return { ok: false, errors: { [field]: ['must be an array of blocks (the complete new list)'] } };
  const errors: Record<string, string[]> = {};
  const add = (key: string, message: string) => (errors[key] ??= []).push(message);
  const byName = new Map(current.map((b) => [b.name, b]));
  const seen = new Set<string>();
  const taken = current.map((b) => b.name);
  const blocks: SubstitutionBlock[] = [];
  sent.forEach((raw: unknown, i) => {
    const at = `${field}.${i}`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return add(at, 'must be an object {name?, delivery_type_id?, content}');
    const block = raw as Record<string, unknown>;
    const unknownKeys = Object.keys(block).filter((k) => !['name', 'tag', 'delivery_type_id', 'content'].includes(k));
    if (unknownKeys.length) add(at, `unknown fields: ${unknownKeys.join(', ')}`);
    const { name, delivery_type_id: deliveryTypeId, content } = block;
    if (content !== undefined && typeof content !== 'string') add(`${at}.content`, 'must be a string');
    if (deliveryTypeId !== undefined && (typeof deliveryTypeId !== 'number' || !Number.isInteger(deliveryTypeId) || deliveryTypeId <= 0)) {
      return add(`${at}.delivery_type_id`, 'must be a positive integer');
    }
    if (name !== undefined && name !== null) {
      if (typeof name !== 'string') return add(`${at}.name`, 'must be a string');
      const existing = byName.get(name);
      if (!existing) return add(`${at}.name`, `${name} is not a block of this status (leave name out to create one)`);
      if (seen.has(name)) return add(`${at}.name`, `${name} is listed twice`);
      seen.add(name);
      if (deliveryTypeId !== undefined && deliveryTypeId !== existing.delivery_type_id) return add(`${at}.delivery_type_id`, 'a block cannot be moved to another delivery; delete it and create a new one');
      blocks.push({ ...existing, content: typeof content === 'string' ? content : existing.content });
      return;
    }
    if (deliveryTypeId === undefined) return add(`${at}.delivery_type_id`, 'is required for a new block');
    if (!shopDeliveryTypeIds.has(deliveryTypeId as number)) return add(`${at}.delivery_type_id`, 'is not a delivery type of this shop');
    if (typeof content !== 'string') return add(`${at}.content`, 'is required for a new block');
    const newName = nextBlockName(deliveryTypeId as number, taken);
    taken.push(newName);
    blocks.push({ name: newName, delivery_type_id: deliveryTypeId as number, content });
  });
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, blocks, removed: current.filter((b) => !seen.has(b.name)).map((b) => b.name) };
}

/** What a status mail is composed from: the order's tags and facts, or none (a test without an order). */
export interface StatusMailFacts {
  tags: Record<string, string>;
  /** The delivery the customer chose; null without one. */
  deliveryTypeId: number | null;
  /** The order holds an electronic product. */
  electronic: boolean;
  /** HTML of the order's download links (`{{LINKI_DO_POBRANIA}}`), already escaped; '' without any. */
  downloadLinksHtml: string;
}

/** The HTML list of `{{LINKI_DO_POBRANIA}}`: one escaped link per download code; '' without any. */
export function downloadLinksList(links: readonly { href: string; name: string }[]): string {
  if (links.length === 0) return '';
  return `<ul>${links.map((l) => `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.name)}</a></li>`).join('')}</ul>`;
}

export const DOWNLOAD_LINKS_TAG = 'LINKI_DO_POBRANIA';

/**
 * The subject and HTML of a status mail. For an order with an electronic product a non-empty
 * `electronic_order_substitution_content` is the body instead of `content`. Each block's tag is
 * replaced by its content only when the customer chose its delivery, else it disappears; the
 * order's tags (`{{NUMER_PACZKI}}` among them) are then filled, in the blocks too.
 */
export function composeStatusMail(template: StatusMailTemplate, facts: StatusMailFacts): { subject: string; html: string } {
  const substitute = facts.electronic && template.electronic_order_substitution_content;
  let body = substitute ? template.electronic_order_substitution_content! : template.content;
  const blocks = new Map(template.delivery_type_substitutions.map((b) => [b.name, b]));
  body = body.replace(/\{\{\s*(DOSTAWA_\d+_\d+)\s*\}\}/g, (whole, name: string) => {
    const block = blocks.get(name);
    if (!block) return whole;
    return block.delivery_type_id === facts.deliveryTypeId ? block.content : '';
  });
  // After the tags, so nothing in a file name is read as a tag.
  const html = fillTags(body, facts.tags).replace(new RegExp(`\\{\\{\\s*${DOWNLOAD_LINKS_TAG}\\s*\\}\\}`, 'g'), () => facts.downloadLinksHtml);
  return { subject: fillTags(template.subject, facts.tags), html };
}

/** A stored template (json) read defensively: null unless it has a subject and content. */
export function storedTemplate(value: unknown): StatusMailTemplate | null {
  if (typeof value !== 'object' || value === null) return null;
  const t = value as Partial<StatusMailTemplate>;
  if (typeof t.subject !== 'string' || typeof t.content !== 'string') return null;
  return {
    subject: t.subject,
    content: t.content,
    electronic_order_substitution_content: typeof t.electronic_order_substitution_content === 'string' ? t.electronic_order_substitution_content : null,
    delivery_type_substitutions: Array.isArray(t.delivery_type_substitutions) ? t.delivery_type_substitutions : [],
  };
}

/** `123` or `#123` (spaces around allowed): the order's ordinal number, or null when it is not one. */
export function parseOrderNumber(value: string | number): number | null {
  const text = String(value).trim().replace(/^#/, '');
  if (!/^[1-9]\d{0,9}$/.test(text)) return null;
  const n = Number(text);
  return n <= 2_147_483_647 ? n : null;
}

/** The `email` object of a PATCH: only the sent fields (blocks as received, checked here). */
export interface EmailWrite {
  subject?: string;
  content?: string;
  electronic_order_substitution_content?: string | null;
  delivery_type_substitutions?: unknown;
}

/**
 * The template after a PATCH of `email` (rules 2 and 4): sent fields over the current ones; a
 * status without a mail needs both `subject` and `content`; the blocks by applySubstitutionBlocks,
 * and the tags of deleted blocks removed from the subject and both bodies. Errors are keyed
 * `email.<field>`; any error means the status stays as it is.
 */
export function applyEmailWrite(current: StatusMailTemplate | null, sent: EmailWrite, shopDeliveryTypeIds: ReadonlySet<number>): { ok: true; template: StatusMailTemplate } | { ok: false; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  if (!current) {
    if (sent.subject === undefined) errors['email.subject'] = ['is required for the first mail of a status (with content)'];
    if (sent.content === undefined) errors['email.content'] = ['is required for the first mail of a status (with subject)'];
  }
  const currentBlocks = current?.delivery_type_substitutions ?? [];
  let blocks = currentBlocks;
  let removed: string[] = [];
  if (Object.hasOwn(sent, 'delivery_type_substitutions')) {
    const result = applySubstitutionBlocks(currentBlocks, sent.delivery_type_substitutions, shopDeliveryTypeIds);
    if (result.ok) ({ blocks, removed } = result);
    else Object.assign(errors, result.errors);
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const electronic = sent.electronic_order_substitution_content !== undefined ? sent.electronic_order_substitution_content : (current?.electronic_order_substitution_content ?? null);
  return {
    ok: true,
    template: {
      subject: removeTags(sent.subject ?? current!.subject, removed),
      content: removeTags(sent.content ?? current!.content, removed),
      electronic_order_substitution_content: electronic === null || electronic === '' ? null : removeTags(electronic, removed),
      delivery_type_substitutions: blocks,
    },
  };
}

/** The `Message-ID` of a shop mail, derived from its idempotency key (the same on every retry). */
export function shopMessageId(shopId: string, key: string): string {
  return `<shop-${key.replace(/[^A-Za-z0-9.-]/g, '.')}.${shopId}@shop>`;
}
