import type { ResumeStore } from './resume-store.ts';

/** What a client keeps of a login; persist it (and pass it back) to survive a page reload. */
export type Session = { token: string; refreshToken: string; userId: string; expiresAt: number };

/** A session from a login result (which carries more: `expires`, the same instant as text). */
export function toSession(result: Session): Session {
  return {
    token: result.token,
    refreshToken: result.refreshToken,
    userId: result.userId,
    expiresAt: result.expiresAt,
  };
}

export type CofferClientOptions = {
  /** The service, e.g. `https://files.example.com` (no trailing path). */
  baseUrl: string;
  appId: string;
  /**
   * Servers and trusted tools only. Browsers leave it out: their origin, in the project's
   * allowed origins, stands in for it.
   */
  appSecret?: string;
  session?: Session;
  /** Told of every new session (login, signup, refresh) and of its end (undefined). */
  onSession?: (session: Session | undefined) => void;
  /**
   * Where resumable uploads keep their state ({fileId, resumableUrl}) for every upload() that
   * names none. Default: files in `~/.coffer/resumable-uploads/` in Node (`fileResumeStore()`),
   * `localStorage` in browsers, else memory.
   */
  resumeStore?: ResumeStore;
  /** Another fetch (tests, proxies); the global one by default. */
  fetch?: typeof fetch;
};
