import { createHash, randomBytes } from 'node:crypto';
import { invalidRefreshToken } from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import type { NewEvent } from '../events/event.ts';
import { newId } from '../ids.ts';
import type { NewRefreshToken, RefreshToken, RefreshTokenRepository } from './refresh-token-repository.ts';

export type RefreshTokenOptions = {
  repository: RefreshTokenRepository;
  clock: Clock;
  ttlSeconds: number;
  reuseGraceSeconds: number;
};

/**
 * Refresh tokens: opaque, 256 random bits, stored only as SHA-256 hashes (a hash of that much
 * randomness cannot be reversed or guessed, so no slow hash is needed). Single use: each
 * refresh retires the token and answers another of the same family (one login); a retired
 * token used again after the grace means two holders, so the whole family is revoked.
 */
export class RefreshTokenService {
  readonly #o: RefreshTokenOptions;

  constructor(options: RefreshTokenOptions) {
    this.#o = options;
  }

  /** Starts a family for a new login: answers its id and first token. */
  async start(
    user: { id: string; projectId: string },
    event?: NewEvent,
  ): Promise<{ familyId: string; refreshToken: string }> {
    const familyId = newId();
    const { refreshToken, stored } = this.#mint();
    const now = this.#o.clock.now();
    await this.#o.repository.createFamily(
      { id: familyId, projectId: user.projectId, userId: user.id },
      stored,
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
   * Retires the token and answers its family's next one. INVALID_REFRESH_TOKEN when it is
   * unknown, expired or revoked, and when it was retired before the grace (then its family is
   * revoked too: the newest token stops working as well).
   */
  async rotate(refreshToken: string): Promise<{ familyId: string; refreshToken: string }> {
    const now = this.#o.clock.now();
    const next = this.#mint();
    const graceMs = this.#o.reuseGraceSeconds * 1000;
    const result = await this.#o.repository.rotate(toTokenHash(refreshToken), next.stored, now, graceMs);
    if (result.outcome === 'reused') await this.#o.repository.deleteFamily(result.token.familyId);
    if (result.outcome !== 'rotated') throw invalidRefreshToken();
    await this.#sweep(now);
    return { familyId: result.token.familyId, refreshToken: next.refreshToken };
  }

  /** Logout: revokes the family (idempotent). */
  async revokeFamily(familyId: string, event?: NewEvent): Promise<void> {
    await this.#o.repository.deleteFamily(familyId, event);
  }

  /** Password change: revokes every family of the user but the caller's. */
  async revokeOtherFamilies(user: { id: string; projectId: string }, keepFamilyId?: string): Promise<void> {
    await this.#o.repository.deleteUserFamilies(user.projectId, user.id, keepFamilyId);
  }

  #mint(): { refreshToken: string; stored: NewRefreshToken } {
    const refreshToken = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.#o.clock.now().getTime() + this.#o.ttlSeconds * 1000);
    return { refreshToken, stored: { tokenHash: toTokenHash(refreshToken), expiresAt } };
  }

  /** Each write also deletes up to two expired families: none pile up, no request does much. */
  async #sweep(now: Date): Promise<void> {
    await this.#o.repository.deleteExpired(now, 2);
  }
}

export function toTokenHash(refreshToken: string): string {
  return createHash('sha256').update(refreshToken).digest('base64url');
}
