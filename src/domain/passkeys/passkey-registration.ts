import { randomBytes } from 'node:crypto';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { notFound, passkeyLimitReached, validationFailed } from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import type { Actor } from '../events/event.ts';
import { toUserEvent } from '../events/user-events.ts';
import type { Project } from '../identity/project-repository.ts';
import type { User } from '../identity/user-repository.ts';
import { newId } from '../ids.ts';
import type { Passkey, PasskeyRepository } from './passkey-repository.ts';
import { challengeMinutes, hashChallenge, toRelyingParty, toSignedChallenge } from './relying-party.ts';
import { loadWebAuthn } from './webauthn.ts';

/** A user holds at most this many passkeys (issue 41). */
export const maxPasskeysPerUser = 10;

export type PasskeyRegistrationOptions = { passkeys: PasskeyRepository; clock: Clock };

/** A passkey as the API lists it. */
export type PasskeyView = { id: string; name: string; createdAt: string; lastUsedAt: string | null };

/** Registering, listing and removing a user's passkeys (issue 41). */
export class PasskeyRegistration {
  readonly #o: PasskeyRegistrationOptions;

  constructor(options: PasskeyRegistrationOptions) {
    this.#o = options;
  }

  /**
   * POST /user/passkeys/options: the options for navigator.credentials.create. The user handle
   * is random bytes kept per user (the one of their passkeys, or new): WebAuthn §14.6.1 asks
   * that it carry no personal data, and an authenticator replaces its credential of the same handle.
   */
  async options(project: Project, user: User): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const rp = toRelyingParty(project);
    const existing = await this.#o.passkeys.listByUser(project.id, user.id);
    if (existing.length >= maxPasskeysPerUser) throw passkeyLimitReached(maxPasskeysPerUser);
    const userHandle = existing[0]?.userHandle ?? randomBytes(32).toString('base64url');
    const { generateRegistrationOptions } = await loadWebAuthn();
    const options = await generateRegistrationOptions({
      rpName: rp.rpName,
      rpID: rp.rpId,
      userName: user.email,
      userDisplayName: user.displayName,
      userID: new Uint8Array(Buffer.from(userHandle, 'base64url')),
      attestationType: 'none',
      excludeCredentials: existing.map((one) => ({ id: one.credentialId, transports: one.transports })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      timeout: challengeMinutes * 60_000,
    });
    const now = this.#o.clock.now();
    await this.#o.passkeys.deleteExpiredChallenges(now);
    await this.#o.passkeys.saveChallenge({
      challengeHash: hashChallenge(options.challenge),
      projectId: project.id,
      purpose: 'registration',
      userId: user.id,
      userHandle,
      expiresAt: new Date(now.getTime() + challengeMinutes * 60_000),
    });
    return options;
  }

  /** POST /user/passkeys: the authenticator's answer checked against a challenge this user was given, once. */
  async register(
    project: Project,
    user: User,
    input: { response: RegistrationResponseJSON; name?: string },
    by: Actor,
  ): Promise<PasskeyView> {
    const rp = toRelyingParty(project);
    const refused = (why: string) => validationFailed(`the passkey was not registered: ${why}`);
    const challenge = toSignedChallenge(input.response);
    const now = this.#o.clock.now();
    const purpose = 'registration';
    const taken =
      challenge &&
      (await this.#o.passkeys.takeChallenge(
        { projectId: project.id, purpose, challengeHash: hashChallenge(challenge) },
        now,
      ));
    if (!taken || taken.userId !== user.id || !taken.userHandle)
      throw refused('its challenge is unknown, used or expired: ask for new options');
    const { verifyRegistrationResponse } = await loadWebAuthn();
    const verification = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpId,
      requireUserVerification: false,
    }).catch((error: unknown) => {
      throw refused(error instanceof Error ? error.message : 'its answer is malformed');
    });
    if (!verification.verified) throw refused('its answer did not verify');
    const info = verification.registrationInfo;
    const existing = await this.#o.passkeys.listByUser(project.id, user.id);
    if (existing.length >= maxPasskeysPerUser) throw passkeyLimitReached(maxPasskeysPerUser);
    const passkey: Passkey = {
      id: newId(),
      projectId: project.id,
      userId: user.id,
      credentialId: info.credential.id,
      publicKey: info.credential.publicKey,
      counter: info.credential.counter,
      userHandle: taken.userHandle,
      transports: info.credential.transports ?? [],
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      name: toPasskeyName(input.name, existing.length),
      createdAt: now,
      lastUsedAt: null,
    };
    const event = toUserEvent('user.passkey_added', by, user, now, {
      passkeyId: passkey.id,
      name: passkey.name,
    });
    if (!(await this.#o.passkeys.create(passkey, event))) throw refused('this passkey is registered already');
    return toPasskeyView(passkey);
  }

  /** GET /user/passkeys (and the console's list). */
  async list(projectId: string, userId: string): Promise<PasskeyView[]> {
    return (await this.#o.passkeys.listByUser(projectId, userId)).map(toPasskeyView);
  }

  /** Whether the user holds a passkey: the MFA answer's `methods` lists "passkey" then (secondFactorMethodsOf). */
  async hasPasskeys(user: User): Promise<boolean> {
    return (await this.#o.passkeys.listByUser(user.projectId, user.id)).length > 0;
  }

  /** DELETE /user/passkeys/:id (and the console's removal): NOT_FOUND when the user has no such passkey. */
  async remove(user: User, id: string, by: Actor): Promise<void> {
    const event = toUserEvent('user.passkey_removed', by, user, this.#o.clock.now(), { passkeyId: id });
    if (!(await this.#o.passkeys.delete(user.projectId, user.id, id, event))) throw notFound('passkey');
  }
}

function toPasskeyName(name: string | undefined, count: number): string {
  const trimmed = name?.trim().slice(0, 100) ?? '';
  return trimmed === '' ? `Passkey ${count + 1}` : trimmed;
}

export function toPasskeyView(passkey: Passkey): PasskeyView {
  return {
    id: passkey.id,
    name: passkey.name,
    createdAt: passkey.createdAt.toISOString(),
    lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
  };
}
