/** Entities of the shop service. */
import { ElectronicContent, Product } from './product.ts';
import { Order, OrderItem } from './order.ts';
import { OrderStatus } from './order-status.ts';
import { DeliveryType, PaymentType, ProductCategory, Sender } from './reference.ts';
import { ShopFile } from './shop-file.ts';
import { OrderEffect, OrderStatusChange } from './order-effect.ts';
import { DownloadCode } from './download-code.ts';
import { DiscountCode, DiscountCodePool } from './discount-code.ts';
import { AutomaticDiscount, ProductPriceChange } from './automatic-discount.ts';
import { ShopMail } from './shop-mail.ts';
import { ProductSet, ProductSetItem } from './product-set.ts';
import { ProductRecommendationGroup, ProductRecommendationItem } from './recommendation-group.ts';
import { NewsletterSubscriber } from './newsletter-subscriber.ts';
import { MailSequence, MailSequenceItem, MailSequenceRecipientCode } from './mail-sequence.ts';
import { Shop, ShopApiKey } from './shop.ts';
import { Subscriber, SubscriberPeriod, SubscriptionPlan, SubscriptionPlanEmail, SubscriptionPlanProduct } from './subscription.ts';
import { ShopPaymentGateway, SubscriberCharge } from './subscription-billing.ts';
import { ShopWebhook, ShopWebhookDelivery, ShopWebhookDeliveryAttempt } from './webhook.ts';
import { ShopAuditLogEntry } from './audit-log.ts';
import { Cart } from './cart.ts';
import { OrderPayment, ShopAnalyticsIntegration, ShopMarketingIntegration, StripeCustomer } from './integrations.ts';
import { ShopInvoice, ShopInvoiceCounter } from './invoice.ts';
import { ClubIntegration, ClubProduct, ClubWebhookDelivery, ClubWebhookDeliveryAttempt } from './club.ts';

export * from './audit-log.ts';
export * from './cart.ts';
export * from './automatic-discount.ts';
export * from './club.ts';
export * from './discount-code.ts';
export * from './download-code.ts';
export * from './integrations.ts';
export * from './invoice.ts';
export * from './mail-sequence.ts';
export * from './newsletter-subscriber.ts';
export * from './order.ts';
export * from './order-effect.ts';
export * from './order-status.ts';
export * from './product.ts';
export * from './product-set.ts';
export * from './recommendation-group.ts';
export * from './reference.ts';
export * from './shop-file.ts';
export * from './shop-mail.ts';
export * from './shop.ts';
export * from './subscription.ts';
export * from './subscription-billing.ts';
export * from './webhook.ts';

export const shopEntities = [
  Shop, ShopApiKey, ProductCategory, DeliveryType, PaymentType, Sender, OrderStatus, ShopFile, Product, ElectronicContent, Order, OrderItem, OrderEffect, OrderStatusChange, DownloadCode, ShopMail,
  ShopWebhook, ShopWebhookDelivery, ShopWebhookDeliveryAttempt,
  ClubIntegration, ClubProduct, ClubWebhookDelivery, ClubWebhookDeliveryAttempt,
  DiscountCodePool, DiscountCode,
  AutomaticDiscount, ProductPriceChange,
  ProductSet, ProductSetItem, ProductRecommendationGroup, ProductRecommendationItem,
  NewsletterSubscriber,
  MailSequence, MailSequenceItem, MailSequenceRecipientCode,
  SubscriptionPlan, SubscriptionPlanProduct, Subscriber, SubscriberPeriod, SubscriptionPlanEmail,
  ShopPaymentGateway, SubscriberCharge,
  ShopAuditLogEntry,
  Cart,
  ShopAnalyticsIntegration, ShopMarketingIntegration, StripeCustomer, OrderPayment,
  ShopInvoice, ShopInvoiceCounter,
];
