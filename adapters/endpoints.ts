/**
 * Where the shops' outside tools are reached: their real addresses unless a variable names a
 * local stand-in (`STRIPE_API_URL`, `GA4_MP_URL`, `MAILCHIMP_API_URL`; tests, local stacks).
 */
export interface IntegrationEndpoints {
  stripeApiUrl?: string;
  ga4Url?: string;
  mailchimpApiUrl?: string;
}

export function integrationEndpointsFrom(env: { STRIPE_API_URL?: string; GA4_MP_URL?: string; MAILCHIMP_API_URL?: string }): IntegrationEndpoints {
  return { stripeApiUrl: env.STRIPE_API_URL, ga4Url: env.GA4_MP_URL, mailchimpApiUrl: env.MAILCHIMP_API_URL };
}
