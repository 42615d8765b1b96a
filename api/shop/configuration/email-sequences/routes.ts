import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { findMailSequence, knownProductIds, listMailSequences, shopHas, triggersOf, updateMailSequence, type SequenceWithItems } from '../../../../db/repositories/shop/mail-sequences.ts';
import { applyTriggerPatch, recipientCodeProblems, type RecipientDiscountCode, type TriggerPatch } from '../../../../domain/shop/mail-sequence-rules.ts';
import { pathId, unknownIds } from '../../../../domain/shop/product-rules.ts';
import { notFound } from '../../../shared/errors.ts';
import { pageMeta, pageOf, PageQuery, pageWindow } from '../../../shared/pagination.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../../shared/schemas.ts';
import { fieldErrorMap, unprocessable, type FieldErrors } from '../../../shared/validation-errors.ts';
import { shopKeyOf } from '../../auth.ts';
import { PatchSequenceBody, SequenceParams, SequenceReply, type PatchSequenceInput } from './schemas.ts';
import { sequenceReply } from './serialize.ts';

async function sequenceOr404(em: EntityManager, segment: string, forUpdate = false): Promise<SequenceWithItems> {
  const id = pathId(segment);
  const found = id === null ? null : await findMailSequence(em, id, forUpdate);
  if (!found) throw notFound('mail sequence');
  return found;
}

const add = (problems: FieldErrors, field: string, message: string) => (problems[field] ??= []).push(message);

function triggerPatchOf(t: NonNullable<PatchSequenceInput['triggers']>): TriggerPatch {
  return {
    statusId: t.status_id,
    productsDependent: t.products_dependent,
    productIds: t.product_ids,
    discountCodeId: t.discount_code_id,
    subscriptionPlanId: t.subscription_plan_id,
    newsletterSubscription: t.newsletter_subscription,
    firstSubscriptionEntry: t.first_subscription_entry,
  };
}

/**
 * Applies a PATCH (rules 2 and 3) to the loaded sequence, or throws one 422 naming every bad
 * field before anything changes. Ids of another shop are refused like unknown ones.
 */
async function patchSequence(em: EntityManager, shopId: string, { sequence }: SequenceWithItems, body: PatchSequenceInput): Promise<void> {
  const problems = fieldErrorMap();
  if (body.sender_id != null && !(await shopHas.sender(em, body.sender_id))) add(problems, 'sender_id', 'is not a sender of this shop');

  const current = triggersOf(sequence);
  const patch = body.triggers ? triggerPatchOf(body.triggers) : {};
  const { triggers, problems: triggerProblems } = applyTriggerPatch(current, patch);
  Object.assign(problems, triggerProblems);
  if (patch.statusId != null && !(await shopHas.status(em, patch.statusId))) add(problems, 'triggers.status_id', 'is not an order status of this shop');
  const missingProducts = unknownIds(patch.productIds ?? [], await knownProductIds(em, patch.productIds ?? [], current.productIds));
  if (missingProducts.length) add(problems, 'triggers.product_ids', `unknown ids: ${missingProducts.join(', ')}`);
  if (patch.discountCodeId != null && !(await shopHas.extraContentsCode(em, patch.discountCodeId))) {
    add(problems, 'triggers.discount_code_id', 'must be a discount code of this shop of kind extra contents (free_contents)');
  }
  if (patch.subscriptionPlanId != null && !(await shopHas.subscriptionPlan(em, shopId, patch.subscriptionPlanId))) {
    add(problems, 'triggers.subscription_plan_id', 'is not a subscription plan of this shop');
  }

  const sentCode = body.recipient_discount_code ?? {};
  const code: RecipientDiscountCode = {
    enabled: sentCode.enabled ?? sequence.recipientDiscountCode.enabled,
    type: sentCode.type ?? sequence.recipientDiscountCode.type,
    value: sentCode.value !== undefined ? sentCode.value : sequence.recipientDiscountCode.value,
    validityDays: sentCode.validity_days !== undefined ? sentCode.validity_days : sequence.recipientDiscountCode.validityDays,
    productIds: sentCode.product_ids ?? sequence.recipientDiscountCode.productIds,
  };
  Object.assign(problems, recipientCodeProblems(code));
  const missingCodeProducts = unknownIds(sentCode.product_ids ?? [], await knownProductIds(em, sentCode.product_ids ?? [], sequence.recipientDiscountCode.productIds));
  if (missingCodeProducts.length) add(problems, 'recipient_discount_code.product_ids', `unknown ids: ${missingCodeProducts.join(', ')}`);

  if (Object.keys(problems).length > 0) throw unprocessable(problems);
  await updateMailSequence(em, sequence, {
    ...(body.name !== undefined && { name: body.name }),
    ...(body.sender_id !== undefined && { senderId: body.sender_id }),
    ...(body.sending_time !== undefined && { sendingTime: body.sending_time }),
    ...(body.only_first_purchase !== undefined && { onlyFirstPurchase: body.only_first_purchase }),
    ...(body.active !== undefined && { active: body.active }),
    ...triggers,
    recipientDiscountCode: code,
  });
}

/**
 * Mail sequences (spec: Endpoints > Mail sequences): read with `read`, PATCH with
 * `write_storefront`. Created by the operator (`POST /admin/v1/shops/:shop_id/email_sequences`),
 * never deleted here (rule 1).
 */
export const emailSequenceRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = { scope: 'read' } as const;
  const write = { scope: 'write_storefront' } as const;
  const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };

  app.get('/configuration/email_sequences', { config: read, schema: { operationId: 'shop.configuration.email_sequences.list', summary: 'Lists mail sequences', querystring: PageQuery, response: { 200: pageOf(SequenceReply), ...errors } } }, async (request) => {
    const { timeZone } = shopKeyOf(request);
    const [rows, total] = await listMailSequences(request.em, pageWindow(request.query));
    return { data: rows.map((row) => sequenceReply(row, timeZone)), meta: pageMeta(request.query, total) };
  });

  app.get('/configuration/email_sequences/:id', { config: read, schema: { operationId: 'shop.configuration.email_sequences.read', summary: 'Reads a mail sequence', params: SequenceParams, response: { 200: data(SequenceReply), ...errors } } }, async (request) => ({
    data: sequenceReply(await sequenceOr404(request.em, request.params.id), shopKeyOf(request).timeZone),
  }));

  app.patch(
    '/configuration/email_sequences/:id',
    {
      config: write,
      schema: {
        operationId: 'shop.configuration.email_sequences.update',
        summary: 'Updates a mail sequence',
        description:
          'Changes only the fields sent; triggers not sent stay. `product_ids` replaces the list (only with `products_dependent` true, never empty); `status_id: null` also clears the product and code narrowing; `discount_code_id` takes only codes of kind extra contents; `first_subscription_entry` needs `subscription_plan_id`. Any 422 leaves the sequence unchanged.',
        params: SequenceParams,
        body: PatchSequenceBody,
        response: { 200: data(SequenceReply), ...errors },
      },
    },
    async (request) => {
      const { shopId, timeZone } = shopKeyOf(request);
      // Checked and written under the row lock: a concurrent PATCH never mixes in a stale check.
      const found = await request.em.transactional(async (tx) => {
        const locked = await sequenceOr404(tx, request.params.id, true);
        await patchSequence(tx, shopId, locked, request.body);
        return locked;
      });
      return { data: sequenceReply(found, timeZone) };
    },
  );
};
