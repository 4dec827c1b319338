import { createHash } from 'node:crypto';
import { validationFailed } from '../../errors/errors.ts';
import type { Project } from '../identity/project-repository.ts';

/** Challenges are good this long (issue 41): a browser prompt, not a session. */
export const challengeMinutes = 5;

/** Where a project's passkeys are bound (WebAuthn §5.1.3 "RP ID" and the client data's origin). */
export type RelyingParty = { rpId: string; rpName: string; origins: string[] };

/**
 * The RP ID is the project's `passkeyRpId`, else the host of its first allowed origin; the
 * origins a ceremony may come from are its allowed origins (the browser checks the RP ID is a
 * registrable suffix of the page's host; the server checks the client data's origin is one of these).
 */
export function toRelyingParty(project: Project): RelyingParty {
  const first = project.allowedOrigins[0];
  const rpId = project.settings.passkeyRpId ?? (first === undefined ? undefined : URL.parse(first)?.hostname);
  if (rpId === undefined || rpId === '')
    throw validationFailed('passkeys need an allowed origin (or the passkeyRpId setting) in this project');
  return { rpId, rpName: project.name, origins: project.allowedOrigins };
}

/**
 * The challenge inside the client data the authenticator signed over (its hash is in the
 * signature): a challenge sent alongside in the body would be the caller's word, not the
 * authenticator's. Undefined when the response carries no readable client data.
 */
export function toSignedChallenge(response: { response?: { clientDataJSON?: unknown } }): string | undefined {
  const encoded = response.response?.clientDataJSON;
  if (typeof encoded !== 'string' || encoded.length > 8192) return undefined;
  try {
    const clientData = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as {
      challenge?: unknown;
    };
    return typeof clientData.challenge === 'string' && clientData.challenge !== ''
      ? clientData.challenge
      : undefined;
  } catch {
    return undefined;
  }
}

/** How a challenge is stored: its SHA-256, so a read of the table hands out no live challenge. */
export function hashChallenge(challenge: string): string {
  return createHash('sha256').update(challenge).digest('hex');
}
