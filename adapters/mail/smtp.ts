import { createTransport } from 'nodemailer';
import type { SmtpTls } from '../../domain/shared/mail-endpoints.ts';
import { MailTransportError, type OutboundMessage, type SendResult } from './transport.ts';

export interface SmtpServer {
  host: string;
  port: number;
  tls: SmtpTls;
  auth?: { user: string; pass: string };
}

interface SmtpFailure {
  code?: string;
  responseCode?: number;
  message: string;
}

/**
 * A 5xx reply refuses the message for good, except 535 (credentials refused: they may be fixed
 * while the retries run); 4xx, timeouts and connection errors are retried.
 */
function smtpError(sender: string, error: SmtpFailure): MailTransportError {
  const code = error.responseCode;
  const permanent = code !== undefined && code >= 500 && code !== 535;
  return new MailTransportError(`${sender} SMTP ${code ?? error.code ?? 'error'}: ${error.message.slice(0, 300)}`, {
    retryable: !permanent,
    credentialsRefused: code === 535 || error.code === 'EAUTH',
    cause: error,
  });
}

/** One SMTP conversation for one message; the `Message-ID` is the mail's own (domain/mail-delivery.ts). */
export async function smtpSend(sender: string, server: SmtpServer | string, message: OutboundMessage, timeoutMs: number): Promise<SendResult> {
  const timeouts = { connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs };
  const transport =
    typeof server === 'string'
      ? createTransport({ url: server, ...timeouts })
      : createTransport({
          host: server.host,
          port: server.port,
          secure: server.tls === 'implicit',
          requireTLS: server.tls === 'starttls',
          ignoreTLS: server.tls === 'none',
          ...(server.auth ? { auth: server.auth } : {}),
          ...timeouts,
        });
  try {
    const info = await transport.sendMail({
      from: { address: message.from.address, name: message.from.name },
      to: message.to,
      ...(message.replyTo ? { replyTo: message.replyTo } : {}),
      subject: message.subject,
      html: message.html,
      text: message.text,
      messageId: message.messageId,
      headers: { 'X-Mail-Id': message.id },
    });
    return { providerMessageId: typeof info.messageId === 'string' ? info.messageId.slice(0, 255) : undefined };
  } catch (error) {
    throw smtpError(sender, error as SmtpFailure);
  } finally {
    transport.close();
  }
}
