import type { MailEndpoints } from '../../domain/shared/mail-endpoints.ts';
import { smtpSend } from './smtp.ts';
import type { MailTransport, OutboundMessage } from './transport.ts';

/**
 * The platform's own way out when no provider is active: the SMTP relay `DEFAULT_SMTP_URL`
 * (nodemailer URL form, `smtp://user:pass@host:587` or `smtps://...:465`). Without it the mail is
 * recorded in the mail log only (status `recorded`), the behaviour from before delivery existed:
 * a development stack or a test run sends nothing anywhere.
 */
export function platformDefaultTransport(endpoints: MailEndpoints): MailTransport {
  const url = endpoints.defaultSmtpUrl;
  return {
    name: 'platform',
    send: async (message: OutboundMessage) => (url ? smtpSend('platform SMTP', url, message, endpoints.timeoutMs) : { recordedOnly: true }),
  };
}
