import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122030256_Initial } from './Migration20261122030256_Initial.ts';
import { Migration20261122031322_AccessSourcesOrdersEvents } from './Migration20261122031322_AccessSourcesOrdersEvents.ts';
import { Migration20261122032036_ConfigurationInterface } from './Migration20261122032036_ConfigurationInterface.ts';
import { Migration20261122032440_MailDelivery } from './Migration20261122032440_MailDelivery.ts';
import { Migration20261122032912_Webhooks } from './Migration20261122032912_Webhooks.ts';
import { Migration20261122044918_MailClaim } from './Migration20261122044918_MailClaim.ts';
import { Migration20261123021522_Shop } from './Migration20261123021522_Shop.ts';
import { Migration20261123022711_ShopReportIndexes } from './Migration20261123022711_ShopReportIndexes.ts';
import { Migration20261123023535_ShopOrderEffects } from './Migration20261123023535_ShopOrderEffects.ts';
import { Migration20261123030710_CourseAccessLink } from './Migration20261123030710_CourseAccessLink.ts';
import { Migration20261123030743_DiscountCodes } from './Migration20261123030743_DiscountCodes.ts';
import { Migration20261123030737_ShopWebhooks } from './Migration20261123030737_ShopWebhooks.ts';
import { Migration20261123044733_NewsletterSubscribers } from './Migration20261123044733_NewsletterSubscribers.ts';
import { Migration20261123044802_ProductSetsAndUpsellGroups } from './Migration20261123044802_ProductSetsAndUpsellGroups.ts';
import { Migration20261123044807_AutomaticDiscounts } from './Migration20261123044807_AutomaticDiscounts.ts';
import { Migration20261123044829_SubscriptionPlansAndSubscribers } from './Migration20261123044829_SubscriptionPlansAndSubscribers.ts';
import { Migration20261123044956_ClubIntegration } from './Migration20261123044956_ClubIntegration.ts';
import { Migration20261123045133_MailSequences } from './Migration20261123045133_MailSequences.ts';
import { Migration20261123055037_MailSequenceRecipientCodes } from './Migration20261123055037_MailSequenceRecipientCodes.ts';
import { Migration20261123045420_SubscriberBilling } from './Migration20261123045420_SubscriberBilling.ts';
import { Migration20261123052714_SandboxTwin } from './Migration20261123052714_SandboxTwin.ts';

/** Explicit list, in order: no file globbing at run time. Append each new migration here. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122030256_Initial', class: Migration20261122030256_Initial },
  { name: 'Migration20261122031322_AccessSourcesOrdersEvents', class: Migration20261122031322_AccessSourcesOrdersEvents },
  { name: 'Migration20261122032036_ConfigurationInterface', class: Migration20261122032036_ConfigurationInterface },
  { name: 'Migration20261122032440_MailDelivery', class: Migration20261122032440_MailDelivery },
  { name: 'Migration20261122032912_Webhooks', class: Migration20261122032912_Webhooks },
  { name: 'Migration20261122044918_MailClaim', class: Migration20261122044918_MailClaim },
  { name: 'Migration20261123021522_Shop', class: Migration20261123021522_Shop },
  { name: 'Migration20261123022711_ShopReportIndexes', class: Migration20261123022711_ShopReportIndexes },
  { name: 'Migration20261123023535_ShopOrderEffects', class: Migration20261123023535_ShopOrderEffects },
  { name: 'Migration20261123030710_CourseAccessLink', class: Migration20261123030710_CourseAccessLink },
  { name: 'Migration20261123030743_DiscountCodes', class: Migration20261123030743_DiscountCodes },
  { name: 'Migration20261123030737_ShopWebhooks', class: Migration20261123030737_ShopWebhooks },
  { name: 'Migration20261123044733_NewsletterSubscribers', class: Migration20261123044733_NewsletterSubscribers },
  { name: 'Migration20261123044802_ProductSetsAndUpsellGroups', class: Migration20261123044802_ProductSetsAndUpsellGroups },
  { name: 'Migration20261123044807_AutomaticDiscounts', class: Migration20261123044807_AutomaticDiscounts },
  { name: 'Migration20261123044829_SubscriptionPlansAndSubscribers', class: Migration20261123044829_SubscriptionPlansAndSubscribers },
  { name: 'Migration20261123044956_ClubIntegration', class: Migration20261123044956_ClubIntegration },
  { name: 'Migration20261123045133_MailSequences', class: Migration20261123045133_MailSequences },
  { name: 'Migration20261123045420_SubscriberBilling', class: Migration20261123045420_SubscriberBilling },
  { name: 'Migration20261123052714_SandboxTwin', class: Migration20261123052714_SandboxTwin },
  { name: 'Migration20261123055037_MailSequenceRecipientCodes', class: Migration20261123055037_MailSequenceRecipientCodes },
];
