import type { IOrderStatus } from '../../../../db/entities/shop/index.ts';
import { storedAutomaticRule } from '../../../../domain/shop/automatic-status.ts';
import { isBuiltInStatus } from '../../../../domain/shop/order-statuses.ts';
import { blockTag, storedTemplate } from '../../../../domain/shop/status-mail.ts';

/** An order status as the configuration interface answers it (spec: Order status configuration). */
export function orderStatusConfigReply(status: IOrderStatus) {
  const template = storedTemplate(status.email);
  return {
    id: status.id,
    name: status.name,
    kind: status.kind,
    name_editable: !isBuiltInStatus(status.kind),
    send_email_on_status_change: status.sendEmailOnStatusChange,
    sender_id: status.senderId ?? null,
    bcc_email_address: status.bccEmailAddress ?? null,
    treat_order_as_handled: status.treatOrderAsHandled,
    automatically_set: storedAutomaticRule(status.automaticallySet),
    email: template && {
      ...template,
      delivery_type_substitutions: template.delivery_type_substitutions.map((b) => ({ name: b.name, tag: blockTag(b.name), delivery_type_id: b.delivery_type_id, content: b.content })),
    },
  };
}
