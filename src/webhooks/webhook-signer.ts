import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** After a rotation, messages carry the previous secret's signature too for this long. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** A new signing secret in the Standard Webhooks form: `whsec_` + base64 of 24 random bytes. */
export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export interface SigningKeys {
  secret: string;
  previousSecret: string | null;
  rotatedAt: Date | null;
}

/** The secrets a message is signed with now: the current one, and the previous one during the overlap. */
export function activeSecrets(k: SigningKeys, now: Date): string[] {
  const overlap = k.previousSecret !== null && k.rotatedAt !== null && now.getTime() - k.rotatedAt.getTime() < ROTATION_OVERLAP_MS;
  return overlap ? [k.secret, k.previousSecret!] : [k.secret];
}

/**
 * The three Standard Webhooks headers. `webhook-signature` holds one `v1,<base64>` per active
 * secret, space-separated, as the spec allows: a receiver holding either secret verifies.
 */
export function signedHeaders(msgId: string, body: string, at: Date, secrets: readonly string[]): Record<string, string> {
  const signatures = secrets.map((s) => new Webhook(s).sign(msgId, at, body));
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
