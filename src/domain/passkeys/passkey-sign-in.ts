import { createHmac } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { accountDisabled, passkeyNotAccepted } from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import type { EventLog } from '../events/event-log.ts';
import { toUserEvent, userActor } from '../events/user-events.ts';
import type { IdentityService } from '../identity/identity-service.ts';
import type { LoginThrottle } from '../identity/login-throttle.ts';
import type { Project } from '../identity/project-repository.ts';
import { type ClientContext, type Session, toClientInfo } from '../identity/session-types.ts';
import type { User, UserRepository } from '../identity/user-repository.ts';
import { assertVerifiedWhereRequired } from '../identity/verified-email.ts';
import { newId } from '../ids.ts';
import type { BucketRule } from '../rate-limits/rate-limit-repository.ts';
import { type TokenBuckets, toBucketKey } from '../rate-limits/token-buckets.ts';
import type { PasskeyRepository } from './passkey-repository.ts';
import { challengeMinutes, hashChallenge, toRelyingParty, toSignedChallenge } from './relying-party.ts';
import { loadWebAuthn } from './webauthn.ts';

export type PasskeySignInOptions = {
  passkeys: PasskeyRepository;
  users: Pick<UserRepository, 'findById' | 'findByEmail'>;
  sessions: Pick<IdentityService, 'startSession'>;
  /** Failed passkey sign-ins count as failed logins do, on the same buckets. */
  loginThrottle: LoginThrottle;
  events: Pick<EventLog, 'record'>;
  clock: Clock;
  /** Options per client address (a stranger can ask for them; each stores a challenge). */
  perAddress: { buckets: TokenBuckets; rule: BucketRule };
  /** The key of the stand-in credential ids of an address without passkeys (no account oracle). */
  decoyKey: Uint8Array;
};

/**
 * Passkey sign-in (issue 41): a WebAuthn assertion over a challenge Coffer handed out, once,
 * within 5 minutes, from one of the project's allowed origins, with user verification. It is
 * two factors in itself (something held, verified by something known or inherent), so it
 * starts a session directly and never stops at MFA_REQUIRED.
 */
export class PasskeySignIn {
  readonly #o: PasskeySignInOptions;

  constructor(options: PasskeySignInOptions) {
    this.#o = options;
  }

  /**
   * POST /auth/passkey/options: with an email, its account's credentials; an unknown email, or
   * one without passkeys, gets a stand-in id derived from it (the same every time), so the
   * answer says nothing of the account. Without one, the browser offers discoverable passkeys.
   */
  async options(
    project: Project,
    request: { email?: string },
    client: ClientContext,
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const rp = toRelyingParty(project);
    const now = this.#o.clock.now();
    const { buckets, rule } = this.#o.perAddress;
    await buckets.takeAll(
      [{ key: toBucketKey('passkey-options', project.id, client.clientAddress), rule }],
      now,
    );
    const email = request.email?.trim();
    const user = email ? await this.#o.users.findByEmail(project.id, email) : undefined;
    const passkeys = user ? await this.#o.passkeys.listByUser(project.id, user.id) : [];
    const allowCredentials =
      email === undefined || email === ''
        ? undefined
        : passkeys.length > 0
          ? passkeys.map((one) => ({ id: one.credentialId }))
          : [{ id: this.#decoyId(project, email) }];
    const { generateAuthenticationOptions } = await loadWebAuthn();
    const options = await generateAuthenticationOptions({
      rpID: rp.rpId,
      allowCredentials,
      userVerification: 'required',
      timeout: challengeMinutes * 60_000,
    });
    await this.#o.passkeys.deleteExpiredChallenges(now);
    await this.#o.passkeys.saveChallenge({
      challengeHash: hashChallenge(options.challenge),
      projectId: project.id,
      purpose: 'authentication',
      // Named by an email, the challenge is good for that account only (an unknown one: for none).
      userId: email ? (user?.id ?? newId()) : null,
      userHandle: null,
      expiresAt: new Date(now.getTime() + challengeMinutes * 60_000),
    });
    return options;
  }

  /**
   * POST /auth/passkey: the session of the passkey's user. Every refusal is INVALID_LOGIN,
   * counted by the login limits (for the account the credential names, and the address).
   */
  async signIn(
    project: Project,
    response: AuthenticationResponseJSON,
    client: ClientContext,
  ): Promise<Session> {
    const passkey =
      typeof response.id === 'string'
        ? await this.#o.passkeys.findByCredentialId(project.id, response.id)
        : undefined;
    const owner = passkey && (await this.#o.users.findById(project.id, passkey.userId));
    const attempt = { projectId: project.id, email: owner?.email ?? '', clientAddress: client.clientAddress };
    const user = await this.#o.loginThrottle.guard(attempt, async () => {
      if (!passkey || !owner || !(await this.#verify(project, response, passkey, owner))) {
        await this.#recordFailure(project, owner, client);
        throw passkeyNotAccepted();
      }
      return owner;
    });
    // As a password login: only once the credential is right does the account's state show.
    if (!user.enabled) throw accountDisabled();
    assertVerifiedWhereRequired(project, user);
    return this.#o.sessions.startSession(user, project, client, { method: 'passkey' });
  }

  async #verify(
    project: Project,
    response: AuthenticationResponseJSON,
    passkey: NonNullable<Awaited<ReturnType<PasskeyRepository['findByCredentialId']>>>,
    owner: User,
  ): Promise<boolean> {
    const rp = toRelyingParty(project);
    const challenge = toSignedChallenge(response);
    if (!challenge) return false;
    const now = this.#o.clock.now();
    const key = {
      projectId: project.id,
      purpose: 'authentication' as const,
      challengeHash: hashChallenge(challenge),
    };
    const taken = await this.#o.passkeys.takeChallenge(key, now);
    // A challenge handed out for an email is good for that account's passkeys only.
    if (!taken || (taken.userId !== null && taken.userId !== owner.id)) return false;
    // WebAuthn §7.2 step 6: a user handle, when the authenticator returns one, is the credential's owner's.
    const handle = response.response?.userHandle;
    if (handle !== undefined && handle !== passkey.userHandle) return false;
    try {
      const { verifyAuthenticationResponse } = await loadWebAuthn();
      const { verified, authenticationInfo } = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.rpId,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(passkey.publicKey),
          counter: passkey.counter,
          transports: passkey.transports as never,
        },
        requireUserVerification: true,
      });
      // A counter of 0 that stays 0 (synced passkeys, WebAuthn L3: "a signal, not proof") passes
      // and is recorded; the library refuses a counter that went backwards from a non-zero one.
      if (verified) await this.#o.passkeys.recordUse(passkey.id, authenticationInfo.newCounter, now);
      return verified;
    } catch {
      return false;
    }
  }

  async #recordFailure(project: Project, owner: User | undefined, client: ClientContext): Promise<void> {
    const who = { id: owner?.id ?? null, projectId: project.id };
    const event = toUserEvent(
      'user.login_failed',
      userActor(who.id, toClientInfo(client)),
      who,
      this.#o.clock.now(),
      {
        reason: 'INVALID_LOGIN',
        method: 'passkey',
      },
    );
    await this.#o.events.record(event);
  }

  /** 16 bytes, as a platform authenticator's ids: an HMAC of the project and the address. */
  #decoyId(project: Project, email: string): string {
    return createHmac('sha256', this.#o.decoyKey)
      .update(`passkey-decoy\0${project.id}\0${email.toLowerCase()}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }
}
