import { randomBytes } from 'node:crypto';

/**
 * A new endpoint signing secret in the Standard Webhooks form: `whsec_` + base64 of 32 random
 * bytes (the spec asks for 24 to 64 bytes of key).
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
