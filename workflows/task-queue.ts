/** The task queue every workflow and activity of this service runs on unless configured otherwise. */
export const DEFAULT_TASK_QUEUE = 'coursehub';
