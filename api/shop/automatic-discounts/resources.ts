import type { AutomaticDiscountKind } from '../../../domain/shop/automatic-discount-rules.ts';

/** The own fields of the four resources (spec: Automatic discounts, Own fields), by wire name. */
export type OwnField = 'email' | 'email_domain' | 'minimum_order_value' | 'start_date' | 'end_date';

/** What tells one automatic-discount resource from another; everything else is shared code. */
export interface AutomaticDiscountResource {
  kind: AutomaticDiscountKind;
  /** The path under /api/v1, without the id. */
  path: string;
  /** In 404 messages and OpenAPI summaries. */
  name: string;
  /** The OpenAPI component name of the reply. */
  schemaId: string;
  own: readonly OwnField[];
  /** Own fields a POST must send. */
  required: readonly OwnField[];
  /** The list's filter (spec: Endpoints, Automatic discounts). */
  listFilter: 'email' | 'email_domain' | 'active' | null;
}

export const AUTOMATIC_DISCOUNT_RESOURCES: readonly AutomaticDiscountResource[] = [
  {
    kind: 'email_address',
    path: '/email_address_discounts',
    name: 'email-address discount',
    schemaId: 'ShopEmailAddressDiscount',
    own: ['email', 'start_date', 'end_date'],
    required: ['email'],
    listFilter: 'email',
  },
  {
    kind: 'email_domain',
    path: '/email_domain_discounts',
    name: 'email-domain discount',
    schemaId: 'ShopEmailDomainDiscount',
    own: ['email_domain'],
    required: ['email_domain'],
    listFilter: 'email_domain',
  },
  {
    kind: 'newsletter',
    path: '/newsletter_discounts',
    name: 'newsletter discount',
    schemaId: 'ShopNewsletterDiscount',
    own: ['minimum_order_value'],
    required: [],
    listFilter: null,
  },
  {
    kind: 'time_limited',
    path: '/time_limited_discounts',
    name: 'time-limited discount',
    schemaId: 'ShopTimeLimitedDiscount',
    own: ['start_date', 'end_date'],
    required: ['start_date', 'end_date'],
    listFilter: 'active',
  },
];
