import type { NewEvent } from '../events/event.ts';

/** A refresh token as stored: its hash, never the token (docs/security.md, "Sessions"). */
export type RefreshToken = {
  tokenHash: string;
  /** The login it descends from: revoking a family revokes every token rotated from it. */
  familyId: string;
  projectId: string;
  userId: string;
  expiresAt: Date;
  /** When it was rotated; null while it is live. */
  retiredAt: Date | null;
};

export type NewRefreshToken = { tokenHash: string; expiresAt: Date };

/**
 * What a session (family) shows its user, from its sign-in: the address, the user agent
 * (bounded) and how it began (`password`, `magic-link`, `oauth:<provider>`, `anonymous`,
 * `passkey`…). Null for a family from before these were kept.
 */
export type SessionDetails = { ip: string | null; userAgent: string | null; method: string | null };

/** A live family as its user's session list shows it (Unix ms). */
export type FamilySummary = SessionDetails & {
  id: string;
  createdAt: number;
  /** Its sign-in or its latest refresh (access-token use is not written: a write per request). */
  lastUsedAt: number;
};

/**
 * The token a rotation adds, made from the family's secret (null for a family from before
 * secrets existed): derived from it, a rotation repeated within the grace adds the same one.
 */
export type NextRefreshToken = NewRefreshToken | ((familySecret: string | null) => NewRefreshToken);

/** What rotate() found: the token it used, and whether a new one was added to its family. */
export type RotationOutcome =
  | { outcome: 'rotated'; token: RefreshToken }
  /** Retired longer ago than the grace: the caller revokes the family (a stolen token). */
  | { outcome: 'reused'; token: RefreshToken }
  /** Unknown, expired or of a revoked family. */
  | { outcome: 'invalid' };

export interface RefreshTokenRepository {
  /** Starts a family (a login) with its first token. */
  createFamily(
    family: { id: string; projectId: string; userId: string; secret?: string; details?: SessionDetails },
    token: NewRefreshToken,
    now: Date,
    /** A login's user.login event, written with the family. */
    event?: NewEvent,
  ): Promise<void>;
  findByHash(tokenHash: string): Promise<RefreshToken | undefined>;
  /**
   * In one transaction: when the token is live at `now`, or was retired at most `graceMs`
   * before it (a client retrying after a lost answer), retires it and adds `next` to its
   * family; concurrent rotations of one token never both find it live. A `next` already in
   * the family (the same successor derived again) is answered as it is while it is live, and
   * is `invalid` once it was rotated in turn. Writes nothing otherwise.
   */
  rotate(tokenHash: string, next: NextRefreshToken, now: Date, graceMs: number): Promise<RotationOutcome>;
  /** Revokes a family: deletes it and its tokens. Answers whether it existed. */
  deleteFamily(familyId: string, event?: NewEvent): Promise<boolean>;
  /** Revokes every family of the user but `exceptFamilyId`; answers how many. */
  deleteUserFamilies(projectId: string, userId: string, exceptFamilyId?: string): Promise<number>;
  /** The user's live families at `now`, newest first, at most `limit`. */
  listUserFamilies(projectId: string, userId: string, now: Date, limit: number): Promise<FamilySummary[]>;
  /**
   * Revokes one of the user's families, live at `now`, with `event` in the same transaction;
   * answers false (and writes nothing) for any other id: another user's, ended, or none.
   */
  deleteUserFamily(
    owner: { projectId: string; userId: string },
    familyId: string,
    now: Date,
    event: NewEvent,
  ): Promise<boolean>;
  /**
   * Revokes every family of the user but `exceptFamilyId`, writing `toEvent(family)` with each
   * that was live at `now` (in batches, each one transaction); answers how many live ones ended.
   */
  deleteUserFamiliesNoting(
    owner: { projectId: string; userId: string },
    options: { exceptFamilyId?: string; now: Date; toEvent: (family: FamilySummary) => NewEvent },
  ): Promise<number>;
  /** Deletes at most `limit` families whose every token has expired at `now`; answers how many. */
  deleteExpired(now: Date, limit: number): Promise<number>;
  /** When the family's newest token expires (Unix ms), or undefined once it is revoked or swept. */
  findFamilyExpiresAt(familyId: string): Promise<number | undefined>;
  /** When the family began (its sign-in, Unix ms), or undefined once it is revoked or swept. */
  findFamilyCreatedAt(familyId: string): Promise<number | undefined>;
  /**
   * A number the database bumps whenever a family that had not expired is deleted, by any
   * process or node (migrations/session-revocation.ts).
   */
  readSessionEpoch(): Promise<number>;
}
