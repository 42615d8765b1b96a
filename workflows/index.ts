/** Every workflow the worker runs. Deterministic code only: no I/O, clocks, randomness or ORM. */
export { grantCourseAccess } from './access/grant-course-access.ts';
export { grantAudiobookAccess } from './access/grant-audiobook-access.ts';
export { revokeCourseAccess, revokeAudiobookAccess } from './access/revoke-access.ts';
export { fulfilOrder, cancelOrder } from './access/order.ts';
export { courseEnrolmentMails, courseMailRollout, lessonCompleted } from './access/course-mails.ts';
export { mailLoginLink } from './access/onboard-participant.ts';
export { sendTestMail } from './shared/test-mail.ts';
export { deliverWebhook } from './shared/webhook-delivery.ts';
export { quizResultRecorded } from './access/quiz-result.ts';
export { mailDelivery } from './shared/mail-delivery.ts';
export { clearOrder } from './shop/clear-order.ts';
export { changeOrderStatus } from './shop/change-order-status.ts';
export { mailSequence } from './shop/mail-sequence.ts';
export { automaticOrderStatus } from './shop/automatic-status.ts';
export { deliverShopWebhook } from './shop/webhooks.ts';
export { deliverClubWebhook } from './shop/club-webhook.ts';
export { timeLimitedDiscount } from './shop/time-limited-discount.ts';
export { subscriberRenewal } from './shop/subscriber-renewal.ts';
