import type { z } from 'zod';
import { sealSecret } from '../../../../adapters/secrets/secret-box.ts';
import type { ClubProductRow, ClubRow, ClubValues } from '../../../../db/repositories/shop/club.ts';
import { firesForAllProducts, secretWrite, webhookHost } from '../../../../domain/shop/club-rules.ts';
import type { ClubReply, PatchClubBody } from './schemas.ts';

/**
 * The reply of every club endpoint. Before the first PATCH: `configured: false` and the values the
 * first PATCH starts from (on, no address, no key, the Paid status, every order). Neither the
 * address (it carries a token) nor the key is ever in it.
 */
export function clubView(club: ClubRow | null, products: readonly ClubProductRow[], paidStatusId: number): z.input<typeof ClubReply> {
  const productIds = products.map((product) => product.id);
  return {
    configured: club !== null,
    active: club?.active ?? true,
    webhook_url_configured: club !== null,
    webhook_host: club?.host ?? '',
    webhook_secret_key_configured: club?.secret_sealed != null,
    order_status_id: club?.order_status_id ?? paidStatusId,
    product_ids: productIds,
    products: products.map(({ id, name }) => ({ id, name })),
    fires_for_all_products: firesForAllProducts(productIds),
  };
}

/** The columns a PATCH changes: the address and the key sealed with `SECRETS_KEY`, only the fields sent. */
export function clubValues(body: z.output<typeof PatchClubBody>, key: Buffer): ClubValues {
  const url = secretWrite(body.webhook_url);
  const secret = secretWrite(body.webhook_secret_key);
  return {
    active: body.active,
    orderStatusId: body.order_status_id,
    ...(url.kind === 'set' ? { urlSealed: sealSecret(url.value, key), host: webhookHost(url.value) } : {}),
    ...(secret.kind === 'set' ? { secretSealed: sealSecret(secret.value, key) } : secret.kind === 'clear' ? { secretSealed: null } : {}),
  };
}
