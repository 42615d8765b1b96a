import type { Config } from './config.ts';

export type SmtpTls = 'starttls' | 'implicit' | 'none';

/**
 * Where the providers and the platform's own SMTP relay are reached (environment, see
 * .env.example). An unset provider endpoint makes that provider unusable: verification and
 * sending fail with a message naming the variable.
 */
export interface MailEndpoints {
  /** provider_a's HTTP API base (`PROVIDER_A_API_URL`). */
  providerAApiUrl?: string;
  /** provider_b's SMTP host; `{region}` is replaced by the provider's region (`PROVIDER_B_SMTP_HOST`). */
  providerBSmtpHost?: string;
  providerBSmtpPort: number;
  providerBSmtpTls: SmtpTls;
  /** The address provider_b accepts and drops, for the test mail sent on save. */
  providerBSimulatorAddress: string;
  /** provider_c's HTTP API base (`PROVIDER_C_API_URL`). */
  providerCApiUrl?: string;
  /** The platform's default transport (`DEFAULT_SMTP_URL`, nodemailer URL form); unset: mail is recorded only. */
  defaultSmtpUrl?: string;
  /** A sandbox twin's only transport (`SANDBOX_SMTP_URL`, a mail catcher); unset: its mail is recorded only. */
  sandboxSmtpUrl?: string;
  /** Sender address when neither the template nor the platform names one (`DEFAULT_MAIL_FROM`). */
  defaultFrom: string;
  /** Per provider request or SMTP conversation (`MAIL_SEND_TIMEOUT_MS`). */
  timeoutMs: number;
}

export const DEFAULT_MAIL_ENDPOINTS: MailEndpoints = {
  providerBSmtpPort: 587,
  providerBSmtpTls: 'starttls',
  providerBSimulatorAddress: 'success@simulator.provider-b.invalid',
  defaultFrom: 'no-reply@coursehub.invalid',
  timeoutMs: 15_000,
};

export function mailEndpointsFrom(config: Config): MailEndpoints {
  return {
    providerAApiUrl: config.PROVIDER_A_API_URL,
    providerBSmtpHost: config.PROVIDER_B_SMTP_HOST,
    providerBSmtpPort: config.PROVIDER_B_SMTP_PORT,
    providerBSmtpTls: config.PROVIDER_B_SMTP_TLS,
    providerBSimulatorAddress: config.PROVIDER_B_SIMULATOR_ADDRESS,
    providerCApiUrl: config.PROVIDER_C_API_URL,
    defaultSmtpUrl: config.DEFAULT_SMTP_URL,
    sandboxSmtpUrl: config.SANDBOX_SMTP_URL,
    defaultFrom: config.DEFAULT_MAIL_FROM,
    timeoutMs: config.MAIL_SEND_TIMEOUT_MS,
  };
}
