/**
 * What the pricing module (pricing.ts `priceCheckout`) is given for a placement, derived in one
 * place for the operator's placement, the storefront's carts and their checkout: the keys of what
 * to read of the shop (`pricingReadKeys`) and, from the rows read for them, the `Checkout`
 * (`pricingInputs`), with the problems of what the buyer named that the shop does not have.
 * The rows themselves are read by db/repositories/shop/checkout-reads.ts (a cart's read takes the
 * same keys from the cart's state in SQL, and is used only when they match these).
 */
import type { AutomaticDiscountSnapshot } from './automatic-discount-pricing.ts';
import type { CodeSnapshot } from './discount-code-pricing.ts';
import type { CartLine, ChargeType, Checkout, PricingError, ProductSnapshot } from './pricing.ts';
import { productSetLines, type ProductSetSnapshot } from './product-set-pricing.ts';

/** What the buyer chose that pricing reads, in the placement's field names (a storefront cart becomes that body). */
export interface PricingChoice {
  email: string;
  items: readonly { product_id: number; quantity: number; price?: string | null }[];
  /** A product set ordered whole (in pool mode `items` are the picks). */
  product_set_id?: number | null;
  via_set_link: boolean;
  delivery_type_id?: number | null;
  payment_type_id?: number | null;
  discount_code?: string | null;
  newsletter: boolean;
}

/** What a placement reads of the shop for a choice. */
export interface PricingReadKeys {
  /** The products of the lines: a set's products for a set, else the items' (each once). */
  productIds: number[];
  deliveryTypeId: number | null;
  paymentTypeId: number | null;
  /** The code as typed, trimmed; '' for none. */
  typedCode: string;
  /** The buyer's address, lower case. */
  email: string;
}

/** A delivery or payment type as read. */
export type ChargeTypeRow = ChargeType & { domestic?: boolean };

/** What was read of the shop for the keys (checkout-reads.ts `CheckoutReads` holds these and more). */
export interface PricingRows {
  /** The shop's products among the keys' a cart may hold. */
  products: readonly ProductSnapshot[];
  /** The chosen types when active; null when none was chosen or it is not an active type of the shop. */
  delivery: ChargeTypeRow | null;
  payment: ChargeTypeRow | null;
  /** The shop's code matching the typed one ignoring case. */
  code: CodeSnapshot | null;
  automaticDiscounts: AutomaticDiscountSnapshot[];
  /** The address is signed up for the shop's newsletter. */
  newsletterSubscriber: boolean;
  subscriberPlanMinimums: string[];
}

/** `{field: [messages]}`, prototype-less (a field named `__proto__` is just a field), in the order found. */
export type PricingProblems = Record<string, string[]>;

export function pricingProblems(): PricingProblems {
  return Object.create(null) as PricingProblems;
}

/** Adds the pricing module's errors to `problems`, each under its field. */
export function addPricingErrors(problems: PricingProblems, errors: readonly PricingError[]): PricingProblems {
  for (const error of errors) (problems[error.field] ??= []).push(error.message);
  return problems;
}

const typedCodeOf = (choice: Pick<PricingChoice, 'discount_code'>) => choice.discount_code?.trim() ?? '';
const buyerEmailOf = (choice: Pick<PricingChoice, 'email'>) => choice.email.toLowerCase();

/** The keys of the read for `choice`; `set`: the product set it names, as found (null for none or unknown). */
export function pricingReadKeys(choice: PricingChoice, set: ProductSetSnapshot | null): PricingReadKeys {
  return {
    productIds: set ? set.items.map((item) => item.productId) : [...new Set(choice.items.map((item) => item.product_id))],
    deliveryTypeId: choice.delivery_type_id ?? null,
    paymentTypeId: choice.payment_type_id ?? null,
    typedCode: typedCodeOf(choice),
    email: buyerEmailOf(choice),
  };
}

/**
 * The cart lines of the choice: the items as sent, or a product set's lines (in pool mode the
 * buyer's picks), each set line carrying its share of the set price. Adds problems to `problems`.
 */
function cartLines(choice: PricingChoice, set: ProductSetSnapshot | null, read: readonly ProductSnapshot[], problems: PricingProblems): CartLine[] {
  const products = new Map(read.map((p) => [p.id, p]));
  if (choice.product_set_id == null) {
    choice.items.forEach((line, index) => {
      if (!products.has(line.product_id)) problems[`items.${index}.product_id`] = ['is not a product of this shop'];
    });
    return choice.items.flatMap((line) => {
      const product = products.get(line.product_id);
      return product ? [{ product, quantity: line.quantity, price: line.price }] : [];
    });
  }
  if (!set) {
    problems.product_set_id = ['is not a product set of this shop'];
    return [];
  }
  const lines = productSetLines({
    set,
    picks: choice.items.map((item) => ({ productId: item.product_id, quantity: item.quantity, price: item.price })),
    viaLink: choice.via_set_link,
    paymentTypeId: choice.payment_type_id ?? null,
    catalogue: new Map([...products.values()].map((p) => [p.id, p.price])),
  });
  if (!lines.ok) {
    addPricingErrors(problems, lines.errors);
    return [];
  }
  return lines.lines.map((line) => ({ product: products.get(line.productId)!, quantity: line.quantity, setPrice: line.setPrice, field: line.field }));
}

export type PricingInputs = { ok: true; checkout: Checkout } | { ok: false; problems: PricingProblems };

/**
 * The pricing module's input for `choice` from the rows read for its keys at `now`; the problems
 * (named as the placement names its fields) when it names products, a set, a delivery or a
 * payment type the shop does not have.
 */
export function pricingInputs(choice: PricingChoice, set: ProductSetSnapshot | null, rows: PricingRows, now: Date): PricingInputs {
  const problems = pricingProblems();
  const lines = cartLines(choice, set, rows.products, problems);
  const { delivery, payment } = rows;
  if (choice.delivery_type_id != null && !delivery) problems.delivery_type_id = ['is not an active delivery type of this shop'];
  if (choice.payment_type_id != null && !payment) problems.payment_type_id = ['is not an active payment type of this shop'];
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  const typed = typedCodeOf(choice);
  const email = buyerEmailOf(choice);
  return {
    ok: true,
    checkout: {
      context: {
        lines,
        delivery: delivery && { id: delivery.id, defaultPrice: delivery.defaultPrice, vatRate: delivery.vatRate, domestic: delivery.domestic },
        payment: payment && { id: payment.id, defaultPrice: payment.defaultPrice, vatRate: payment.vatRate },
      },
      code: typed ? { typed, snapshot: rows.code } : null,
      automaticDiscounts: rows.automaticDiscounts,
      buyer: { email, newsletter: choice.newsletter || rows.newsletterSubscriber },
      now,
      subscriberPlanMinimums: rows.subscriberPlanMinimums,
    },
  };
}
