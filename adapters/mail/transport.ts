import type { MailSender } from '../../domain/shared/mail-delivery.ts';

/** One mail as a transport hands it over; `id` is its mail log id. */
export interface OutboundMessage {
  /** The mail log id: the idempotency key of every attempt at this mail. */
  id: string;
  /** `Message-ID` header, derived from `id` (domain/mail-delivery.ts `messageIdFor`). */
  messageId: string;
  from: { address: string; name: string };
  replyTo: string | null;
  to: string;
  subject: string;
  html: string;
  text: string;
}

export interface SendResult {
  /** The provider's id of the accepted message, when it gives one. */
  providerMessageId?: string;
  /** True when nothing was handed over: the platform has no transport and only records mail. */
  recordedOnly?: boolean;
}

/** A way out for mail: one adapter per provider plus the platform's default. */
export interface MailTransport {
  readonly name: MailSender;
  send(message: OutboundMessage): Promise<SendResult>;
}

/**
 * A delivery attempt that did not succeed. `retryable: false` means repeating the same request
 * cannot help (the provider refused the message itself); anything else is retried with backoff.
 */
export class MailTransportError extends Error {
  readonly retryable: boolean;
  /** The provider refused the credentials (HTTP 401/403, SMTP 535). */
  readonly credentialsRefused: boolean;
  constructor(message: string, { retryable, credentialsRefused = false, cause }: { retryable: boolean; credentialsRefused?: boolean; cause?: unknown }) {
    super(message, { cause });
    this.name = 'MailTransportError';
    this.retryable = retryable;
    this.credentialsRefused = credentialsRefused;
  }
}

/** The provider's endpoint is not set in the environment: nothing can be sent until it is. */
export function endpointMissing(variable: string): MailTransportError {
  return new MailTransportError(`${variable} is not set: this provider cannot be reached`, { retryable: false });
}
