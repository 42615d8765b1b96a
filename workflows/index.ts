/** Every workflow the worker runs. Deterministic code only: no I/O, clocks, randomness or ORM. */
export { grantCourseAccess } from './grant-course-access.ts';
export { grantAudiobookAccess } from './grant-audiobook-access.ts';
export { revokeCourseAccess, revokeAudiobookAccess } from './revoke-access.ts';
export { fulfilOrder, cancelOrder } from './order.ts';
export { courseEnrolmentMails, lessonCompleted } from './course-mails.ts';
export { sendTestMail } from './test-mail.ts';
export { deliverWebhook } from './webhook-delivery.ts';
export { quizResultRecorded } from './quiz-result.ts';
export { mailDelivery } from './mail-delivery.ts';
