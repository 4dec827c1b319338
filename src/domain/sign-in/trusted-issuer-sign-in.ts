import { LRUCache } from 'lru-cache';
import { AppError } from '../../errors/app-error.ts';
import {
  accountDisabled,
  accountExists,
  invalidToken,
  tokenExpired,
  trustedIssuerUnavailable,
} from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import { toUserEvent, userActor } from '../events/user-events.ts';
import {
  anonymousEmailDomain,
  isEmailAddress,
  noPasswordHash,
  providerAccountDomain,
  setAccountRole,
} from '../identity/accounts.ts';
import type { Project } from '../identity/project-repository.ts';
import { findTrustedIssuer, type TrustedIssuer } from '../identity/trusted-issuer-settings.ts';
import type { User, UserRepository } from '../identity/user-repository.ts';
import { newId } from '../ids.ts';
import type { UserIdentityRepository } from './sign-in-repositories.ts';
import type { TrustedClaims, TrustedTokenVerifier } from './trusted-token-verifier.ts';

export type TrustedIssuerSignInOptions = {
  verifier: TrustedTokenVerifier;
  users: UserRepository;
  identities: UserIdentityRepository;
  clock: Clock;
};

/** The provider name of a trusted issuer's identities in user_identities (never an `oauth` name: those have no colon). */
export const toIssuerProvider = (name: string) => `issuer:${name}`;

/**
 * Bring your own tokens (issue 37, item 4): a JWT from an issuer the project trusts is a bearer
 * token. Its user is keyed by the issuer's name and `sub` (an identity `issuer:<name>` in
 * user_identities) and made on first use; its role follows `roleClaim` where the operator set one.
 */
export class TrustedIssuerSignIn {
  readonly #o: TrustedIssuerSignInOptions;
  /**
   * Who each (project, issuer, sub) is, so that a token costs its signature check and a cached
   * user read, not an identity query. An identity never moves to another user while the user
   * lives; a deleted user is found missing and its entry dropped.
   */
  readonly #userIds = new LRUCache<string, string>({ max: 10_000 });

  constructor(options: TrustedIssuerSignInOptions) {
    this.#o = options;
  }

  /**
   * The project's trusted issuer that the token names in `iss`, read without checking anything
   * (the check is `authenticate`'s). Projects without trusted issuers never look at the token,
   * so Coffer's own tokens keep their path; the other tokens are decoded once more.
   */
  issuerOf(project: Project, token: string): TrustedIssuer | undefined {
    const table = project.settings.trustedIssuers;
    for (const _ in table) {
      // Coffer's own tokens (HS256) stop at their remembered header; so do `none` and HMAC
      // tokens whatever `iss` they claim: Coffer's check refuses them (INVALID_TOKEN).
      if (!hasAsymmetricHeader(token)) return undefined;
      const iss = peekIssuer(token);
      return iss === undefined ? undefined : findTrustedIssuer(table, iss);
    }
    return undefined;
  }

  /** The user the token speaks for, once it is verified; ACCOUNT_DISABLED for a disabled one. */
  async authenticate(project: Project, issuer: TrustedIssuer, token: string): Promise<User> {
    const checked = await this.#o.verifier.verify(issuer, token, this.#o.clock.now());
    if ('refusal' in checked) {
      if (checked.refusal === 'keysUnavailable') throw trustedIssuerUnavailable(checked.cause);
      throw checked.refusal === 'expired' ? tokenExpired() : invalidToken();
    }
    const { claims } = checked;
    const user =
      (await this.#findUser(project, issuer, claims.sub)) ?? (await this.#create(project, issuer, claims));
    if (!user.enabled) throw accountDisabled();
    if (issuer.roleClaim === undefined) return user;
    // security: the issuer decides the role where a roleClaim is set, so a demotion there
    // takes effect with the user's next token (not only for users made after it).
    const role = toTrustedRole(issuer, claims);
    if (role === user.role) return user;
    return setAccountRole(this.#o.users, project, user.id, role, userActor(user.id));
  }

  async #findUser(project: Project, issuer: TrustedIssuer, sub: string): Promise<User | undefined> {
    const key = `${project.id}\n${issuer.name}\n${sub}`;
    const userId =
      this.#userIds.get(key) ??
      (await this.#o.identities.findUserId(project.id, toIssuerProvider(issuer.name), sub));
    if (userId === undefined) return undefined;
    const user = await this.#o.users.findById(project.id, userId);
    if (user) this.#userIds.set(key, userId);
    else this.#userIds.delete(key);
    return user;
  }

  /**
   * The user of a first token, with its identity and events in one transaction. An address an
   * account already holds is never taken over (ACCOUNT_EXISTS, as provider sign-in without
   * linking by email); a concurrent first use that won is found instead.
   */
  async #create(project: Project, issuer: TrustedIssuer, claims: TrustedClaims): Promise<User> {
    const id = newId();
    const now = this.#o.clock.now();
    const claimed = toEmail(claims.email);
    const provider = toIssuerProvider(issuer.name);
    const user = {
      id,
      projectId: project.id,
      email: claimed ?? `${id.toLowerCase()}@${providerAccountDomain}`,
      passwordHash: noPasswordHash,
      role: toTrustedRole(issuer, claims),
      displayName: toDisplayName(claims),
      enabled: true,
    };
    const by = userActor(id);
    // One login event, when the user is made: a token per request would flood the log with them.
    const events = [
      toUserEvent('user.created', by, user, now, { provider }),
      toUserEvent('user.identity_linked', by, user, now, { provider }),
      toUserEvent('user.login', by, user, now, { method: 'token', provider }),
    ];
    const identity = {
      provider,
      subject: claims.sub,
      userId: id,
      displayName: user.displayName,
      email: claimed,
    };
    const verifiedAt = claimed !== null && claims.email_verified === true ? now : null;
    try {
      return await this.#o.identities.createUser(user, verifiedAt, identity, now, events);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code !== 'EMAIL_TAKEN' && error.code !== 'IDENTITY_IN_USE') throw error;
      const winner = await this.#findUser(project, issuer, claims.sub);
      if (winner) return winner;
      throw accountExists(
        'An account with this email exists; it is not taken over by a token of another issuer',
      );
    }
  }
}

/** The role the token's `roleClaim` grants: a value (or one of an array) listed in `roles`, else `user`. */
export function toTrustedRole(issuer: TrustedIssuer, claims: TrustedClaims): string {
  if (issuer.roleClaim === undefined) return 'user';
  const value = claims[issuer.roleClaim];
  const held = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  return issuer.roles.find((role) => held.includes(role)) ?? 'user';
}

function toEmail(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 254 || !isEmailAddress(value)) return null;
  const lower = value.toLowerCase();
  // Nobody may pass for the generated keys of anonymous and provider-made accounts.
  if (lower.endsWith(`@${anonymousEmailDomain}`) || lower.endsWith(`@${providerAccountDomain}`)) return null;
  return value;
}

function toDisplayName(claims: TrustedClaims): string {
  const name = claims.name ?? claims.preferred_username ?? claims.email;
  return typeof name === 'string' && name.trim() !== ''
    ? name.trim().slice(0, 200)
    : claims.sub.slice(0, 200);
}

const asymmetricAlgorithms: ReadonlySet<unknown> = new Set(['RS256', 'ES256', 'EdDSA']);
// Every token of one key shares its header, so its reading is remembered (bounded: headers
// come from clients), as token-service.ts remembers the kid of Coffer's own.
const asymmetricByHeader = new Map<string, boolean>();

/** Whether the token's header names an algorithm a trusted issuer may sign with. */
function hasAsymmetricHeader(token: string): boolean {
  const dot = token.indexOf('.');
  if (dot <= 0 || dot > 1024) return false;
  const header = token.slice(0, dot);
  let asymmetric = asymmetricByHeader.get(header);
  if (asymmetric === undefined) {
    try {
      asymmetric = asymmetricAlgorithms.has(
        JSON.parse(Buffer.from(header, 'base64url').toString('utf8'))?.alg,
      );
    } catch {
      asymmetric = false;
    }
    if (asymmetricByHeader.size >= 1000) asymmetricByHeader.clear();
    asymmetricByHeader.set(header, asymmetric);
  }
  return asymmetric;
}

/** The `iss` of a compact JWT's payload, undefined when it has none or is not a JWT. */
function peekIssuer(token: string): string | undefined {
  const first = token.indexOf('.');
  const second = token.indexOf('.', first + 1);
  // Header and payload together stay small; a giant token is not decoded to be refused later.
  if (first <= 0 || second <= first + 1 || second > 16_384) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(token.slice(first + 1, second), 'base64url').toString('utf8'));
    return typeof payload?.iss === 'string' ? payload.iss : undefined;
  } catch {
    return undefined;
  }
}
