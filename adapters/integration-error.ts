/**
 * A refusal of an outside tool (GA4, Mailchimp) that a retry cannot change: a 4xx answer other
 * than 408 (timeout) and 429 (rate limit), i.e. bad credentials, an unknown audience, an invalid
 * request; or settings that cannot work (a Mailchimp key without a data center). The order-effect
 * activities give such an effect up at once (`failed` with this message) instead of retrying it
 * for minutes; network errors and 5xx answers stay plain errors and are retried.
 */
export class IntegrationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IntegrationRefused';
  }
}

/** Whether an HTTP status of a tool's answer is a refusal a repeat of the same request gets again. */
export const isPermanentRefusal = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

/** The error for a failed answer: IntegrationRefused when permanent, else a plain (retried) Error. */
export const httpFailure = (status: number, message: string): Error => (isPermanentRefusal(status) ? new IntegrationRefused(message) : new Error(message));
