/** Every workflow the worker runs. Deterministic code only: no I/O, clocks, randomness or ORM. */
export { grantCourseAccess } from './grant-course-access.ts';
