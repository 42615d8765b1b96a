/**
 * `npm run admin` commands for the panel's edits of a shop's reference lists and its mail
 * sequences (DESIGN.md section 10): each a PATCH or DELETE of `/admin/v1/shops/:shop_id/...`.
 * A field left out is sent as undefined (left out of the JSON), so the API leaves it as it is.
 */
export interface AdminCommand {
  usage: string;
  request(args: string[], options: Record<string, string | string[] | boolean | undefined>): { method: string; path: string; body?: unknown };
}

/** The options these commands read, for `parseArgs`. */
export const referenceOptions = {
  name: { type: 'string' },
  'name-displayed': { type: 'string' },
  price: { type: 'string' },
  'vat-rate': { type: 'string' },
  domestic: { type: 'string' },
  'cash-on-delivery': { type: 'string' },
  parent: { type: 'string' },
  email: { type: 'string' },
  visible: { type: 'string' },
} as const;

function need(value: string | undefined, name: string): string {
  if (!value) throw new Error(`missing ${name}`);
  return value;
}

/** `true` / `false` as booleans; anything else is refused before a request is sent. */
function flag(value: unknown, option: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new Error(`--${option} takes true or false`);
}

const optionalNumber = (value: unknown) => (value === undefined ? undefined : Number(value));
const rowPath = (args: string[], list: string) => `/shops/${need(args[0], 'shop_id')}/${list}/${need(args[1], 'id')}`;
const remove = (list: string, what: string): AdminCommand => ({
  usage: `delete-${what} <shop_id> <id>`,
  request: (args) => ({ method: 'DELETE', path: rowPath(args, list) }),
});

export const referenceCommands: Record<string, AdminCommand> = {
  'edit-delivery-type': {
    usage: 'edit-delivery-type <shop_id> <id> [--name n] [--name-displayed n] [--price 12.30] [--vat-rate 23] [--active true|false] [--domestic true|false]',
    request: (args, o) => ({
      method: 'PATCH',
      path: rowPath(args, 'delivery_types'),
      body: { name: o.name, name_displayed: o['name-displayed'], default_price: o.price, vat_rate: optionalNumber(o['vat-rate']), active: flag(o.active, 'active'), domestic: flag(o.domestic, 'domestic') },
    }),
  },
  'edit-payment-type': {
    usage: 'edit-payment-type <shop_id> <id> [--name n] [--name-displayed n] [--price 0.00] [--vat-rate 23] [--active true|false] [--cash-on-delivery true|false]',
    request: (args, o) => ({
      method: 'PATCH',
      path: rowPath(args, 'payment_types'),
      body: {
        name: o.name,
        name_displayed: o['name-displayed'],
        default_price: o.price,
        vat_rate: optionalNumber(o['vat-rate']),
        active: flag(o.active, 'active'),
        cash_on_delivery: flag(o['cash-on-delivery'], 'cash-on-delivery'),
      },
    }),
  },
  'edit-category': {
    usage: 'edit-category <shop_id> <id> [--name n] [--parent <category_id>|none]',
    request: (args, o) => ({
      method: 'PATCH',
      path: rowPath(args, 'product_categories'),
      body: { name: o.name, parent_id: o.parent === undefined ? undefined : o.parent === 'none' ? null : Number(o.parent) },
    }),
  },
  'delete-category': remove('product_categories', 'category'),
  'edit-sender': {
    usage: 'edit-sender <shop_id> <id> [--name n] [--email e]',
    request: (args, o) => ({ method: 'PATCH', path: rowPath(args, 'senders'), body: { name: o.name, email: o.email } }),
  },
  'delete-sender': remove('senders', 'sender'),
  'edit-order-status': {
    usage: 'edit-order-status <shop_id> <id> [--name n] [--visible true|false]',
    request: (args, o) => ({ method: 'PATCH', path: rowPath(args, 'order_statuses'), body: { name: o.name, visible: flag(o.visible, 'visible') } }),
  },
  'delete-order-status': remove('order_statuses', 'order-status'),
  'delete-email-sequence': remove('email_sequences', 'email-sequence'),
};
