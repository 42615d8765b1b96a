/** Every workflow the worker runs. Deterministic code only: no I/O, clocks, randomness or ORM. */
export { grantCourseAccess } from './grant-course-access.ts';
export { grantAudiobookAccess } from './grant-audiobook-access.ts';
export { revokeCourseAccess, revokeAudiobookAccess } from './revoke-access.ts';
export { fulfilOrder, cancelOrder } from './order.ts';
