import { createHash, createHmac, randomBytes } from 'node:crypto';
import { invalidRefreshToken } from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import type { NewEvent } from '../events/event.ts';
import { newId } from '../ids.ts';
import { AccessEpochWatch } from './access-epoch-watch.ts';
import type {
  FamilySummary,
  RefreshToken,
  RefreshTokenRepository,
  SessionDetails,
} from './refresh-token-repository.ts';
import { SessionLiveness } from './session-liveness.ts';

export type RefreshTokenOptions = {
  repository: RefreshTokenRepository;
  clock: Clock;
  ttlSeconds: number;
  reuseGraceSeconds: number;
  /** How long a reading of the session epoch is trusted (access-epoch-watch.ts); tests shorten it. */
  sessionEpochIntervalMs?: number;
};

/**
 * Refresh tokens: opaque, 256 random bits, stored only as SHA-256 hashes (a hash of that much
 * randomness cannot be reversed or guessed, so no slow hash is needed). Single use: each
 * refresh retires the token and answers its successor in the same family (one login); the
 * same token refreshed again within the grace answers the same successor; after the grace it
 * means two holders, so the whole family is revoked. A family is a session: its access tokens
 * work while it lives (`isLive`), and every revocation here ends them at once.
 */
export class RefreshTokenService {
  readonly #o: RefreshTokenOptions;
  readonly #sessions: SessionLiveness;

  constructor(options: RefreshTokenOptions) {
    this.#o = options;
    const { repository } = options;
    this.#sessions = new SessionLiveness({
      watch: new AccessEpochWatch(
        { read: () => repository.readSessionEpoch() },
        options.sessionEpochIntervalMs,
      ),
      findExpiresAt: (familyId) => repository.findFamilyExpiresAt(familyId),
    });
  }

  /** Starts a family for a new login (with what its session list shows): answers its id and first token. */
  async start(
    user: { id: string; projectId: string },
    event?: NewEvent,
    details?: SessionDetails,
  ): Promise<{ familyId: string; refreshToken: string }> {
    const familyId = newId();
    const refreshToken = newRandomToken();
    const now = this.#o.clock.now();
    const family = { id: familyId, projectId: user.projectId, userId: user.id, secret: newRandomToken() };
    await this.#o.repository.createFamily(
      { ...family, details },
      { tokenHash: toTokenHash(refreshToken), expiresAt: this.#expiresAt(now) },
      now,
      event,
    );
    await this.#sweep(now);
    return { familyId, refreshToken };
  }

  /** The token's record, or undefined when it is unknown (nothing is written). */
  find(refreshToken: string): Promise<RefreshToken | undefined> {
    return this.#o.repository.findByHash(toTokenHash(refreshToken));
  }

  /**
   * Retires the token and answers its family's next one; within the grace, the same token
   * again answers the same next one (while that one is unspent). INVALID_REFRESH_TOKEN when it
   * is unknown, expired or revoked, when its successor was spent already, and when it was
   * retired before the grace (then its family is revoked too: the newest token stops working
   * as well, and so do the family's access tokens).
   */
  async rotate(refreshToken: string): Promise<{ familyId: string; refreshToken: string }> {
    const now = this.#o.clock.now();
    const expiresAt = this.#expiresAt(now);
    let successor = '';
    const deriveNext = (familySecret: string | null) => {
      // A family from before secrets existed gets a random successor (the old behaviour).
      successor = familySecret === null ? newRandomToken() : toSuccessor(familySecret, refreshToken);
      return { tokenHash: toTokenHash(successor), expiresAt };
    };
    const graceMs = this.#o.reuseGraceSeconds * 1000;
    const result = await this.#o.repository.rotate(toTokenHash(refreshToken), deriveNext, now, graceMs);
    if (result.outcome === 'reused') {
      const { familyId } = result.token;
      await this.#ending(() => this.#o.repository.deleteFamily(familyId));
    }
    if (result.outcome !== 'rotated') throw invalidRefreshToken();
    await this.#sweep(now);
    return { familyId: result.token.familyId, refreshToken: successor };
  }

  /** Whether the session's access tokens still work: its family exists and has not expired. */
  isLive(familyId: string, now: Date): boolean | Promise<boolean> {
    return this.#sessions.isLive(familyId, now.getTime());
  }

  /** Logout: revokes the family (idempotent). */
  async revokeFamily(familyId: string, event?: NewEvent): Promise<void> {
    await this.#ending(() => this.#o.repository.deleteFamily(familyId, event));
  }

  /** Password change: revokes every family of the user but the caller's. */
  async revokeOtherFamilies(user: { id: string; projectId: string }, keepFamilyId?: string): Promise<void> {
    await this.#ending(() => this.#o.repository.deleteUserFamilies(user.projectId, user.id, keepFamilyId));
  }

  /** Password reset, and whatever else ends every session of the user: revokes all its families. */
  async revokeAllFamilies(user: { id: string; projectId: string }): Promise<void> {
    await this.#ending(() => this.#o.repository.deleteUserFamilies(user.projectId, user.id));
  }

  /** The user's live sessions, newest first, at most `limit`. */
  listFamilies(user: { id: string; projectId: string }, limit: number): Promise<FamilySummary[]> {
    return this.#o.repository.listUserFamilies(user.projectId, user.id, this.#o.clock.now(), limit);
  }

  /** Ends one live session of the user, with its event; false for an id that is none of theirs. */
  async endFamily(
    user: { id: string; projectId: string },
    familyId: string,
    toEvent: (at: Date) => NewEvent,
  ): Promise<boolean> {
    const now = this.#o.clock.now();
    const owner = { projectId: user.projectId, userId: user.id };
    let ended = false;
    await this.#ending(async () => {
      ended = await this.#o.repository.deleteUserFamily(owner, familyId, now, toEvent(now));
    });
    return ended;
  }

  /** Ends every session of the user but `keepFamilyId`, an event for each; answers how many. */
  async endOtherFamilies(
    user: { id: string; projectId: string },
    keepFamilyId: string | undefined,
    toEvent: (family: FamilySummary, at: Date) => NewEvent,
  ): Promise<number> {
    const now = this.#o.clock.now();
    const owner = { projectId: user.projectId, userId: user.id };
    let ended = 0;
    await this.#ending(async () => {
      ended = await this.#o.repository.deleteUserFamiliesNoting(owner, {
        exceptFamilyId: keepFamilyId,
        now,
        toEvent: (family) => toEvent(family, now),
      });
    });
    return ended;
  }

  /** Runs a revocation; this process then trusts no session it remembers (the others within the epoch's interval). */
  async #ending(revoke: () => Promise<unknown>): Promise<void> {
    try {
      await revoke();
    } finally {
      // Also after a failure: the delete may have committed before the error reached us.
      this.#sessions.forget();
    }
  }

  #expiresAt(now: Date): Date {
    return new Date(now.getTime() + this.#o.ttlSeconds * 1000);
  }

  /** Each write also deletes up to two expired families: none pile up, no request does much. */
  async #sweep(now: Date): Promise<void> {
    await this.#o.repository.deleteExpired(now, 2);
  }
}

export function toTokenHash(refreshToken: string): string {
  return createHash('sha256').update(refreshToken).digest('base64url');
}

function newRandomToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The token that follows `spent` in its family: HMAC-SHA256 keyed by the family's secret, so
 * the same spent token always has the same successor (a repeat within the grace answers it
 * again). security: the holder of an old token cannot derive its successors without the
 * secret, and a reader of the database, who has the secret, holds no token in clear (only
 * their hashes). As random-looking as a random token: 32 bytes, base64url.
 */
function toSuccessor(familySecret: string, spent: string): string {
  return createHmac('sha256', familySecret).update(spent).digest('base64url');
}
