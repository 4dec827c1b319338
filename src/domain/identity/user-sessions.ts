import { sessionNotFound } from '../../errors/errors.ts';
import type { Actor } from '../events/event.ts';
import { toUserEvent } from '../events/user-events.ts';
import type { FamilySummary } from './refresh-token-repository.ts';
import type { RefreshTokenService } from './refresh-token-service.ts';

/**
 * The most sessions a list shows, newest first. A user rarely has more than a handful; one
 * who signs in from a script without logging out may have thousands (each lives until its
 * refresh token expires), and "end all" ends those too without listing them.
 */
export const sessionListLimit = 100;

type Owner = { id: string; projectId: string };

/** One session as its user (or an operator) sees it; `current`: the caller's own. */
export type SessionView = Omit<FamilySummary, 'createdAt' | 'lastUsedAt'> & {
  createdAt: Date;
  lastUsedAt: Date;
  current: boolean;
};

/**
 * A user's sessions (issue 41, item 4): the refresh-token families they are signed in with,
 * where and how each began; ending one is a logout of it, at once on every node (the session
 * epoch, refresh-token-service.ts), with `user.session_ended` {sessionId} (never a token).
 */
export class UserSessions {
  readonly #refreshTokens: RefreshTokenService;

  constructor(refreshTokens: RefreshTokenService) {
    this.#refreshTokens = refreshTokens;
  }

  async list(user: Owner, currentSessionId?: string): Promise<SessionView[]> {
    const families = await this.#refreshTokens.listFamilies(user, sessionListLimit);
    return families.map((family) => ({
      ...family,
      createdAt: new Date(family.createdAt),
      lastUsedAt: new Date(family.lastUsedAt),
      current: family.id === currentSessionId,
    }));
  }

  /** Ends one of the user's sessions; SESSION_NOT_FOUND for any id that is not a live one of theirs. */
  async end(user: Owner, sessionId: string, by: Actor): Promise<void> {
    const ended = await this.#refreshTokens.endFamily(user, sessionId, (at) =>
      toUserEvent('user.session_ended', by, user, at, { sessionId }),
    );
    if (!ended) throw sessionNotFound();
  }

  /** Ends every session of the user but `keepSessionId` (the caller's; none for an operator); answers how many. */
  endAll(user: Owner, by: Actor, keepSessionId?: string): Promise<number> {
    return this.#refreshTokens.endOtherFamilies(user, keepSessionId, (family, at) =>
      toUserEvent('user.session_ended', by, user, at, { sessionId: family.id }),
    );
  }
}
