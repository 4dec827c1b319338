/**
 * What lets an upload go on after a reload: its file and its resumable URL. Never a token:
 * the URL is a credential for this upload's bytes only, and expires with it.
 */
export type ResumeState = { fileId: string; resumableUrl: string; createdAt: number };

type MaybePromise<T> = T | Promise<T>;

/** Where uploads keep their state between calls, and across page loads: small JSON values by key. */
export type ResumeStore = {
  get(key: string): MaybePromise<ResumeState | undefined>;
  set(key: string, state: ResumeState): MaybePromise<void>;
  delete(key: string): MaybePromise<void>;
};

/** A store for this process only (what outlives a failed call, not a reload). */
export function memoryResumeStore(): ResumeStore {
  const states = new Map<string, ResumeState>();
  return {
    get: (key) => states.get(key),
    set: (key, state) => void states.set(key, state),
    delete: (key) => void states.delete(key),
  };
}

/** A store in a Web Storage (a browser's localStorage): it outlives a reload of the page. */
export function webStorageResumeStore(storage: Storage): ResumeStore {
  return {
    get(key) {
      try {
        const state: unknown = JSON.parse(storage.getItem(key) ?? 'null');
        return isResumeState(state) ? state : undefined;
      } catch {
        return undefined; // not ours, or not JSON: as if absent
      }
    },
    set: (key, state) => storage.setItem(key, JSON.stringify(state)),
    delete: (key) => storage.removeItem(key),
  };
}

/** `globalThis.localStorage` where there is one (browsers): a Web Storage, if any. */
export function findLocalStorage(): Storage | undefined {
  try {
    // Reading it may throw (a sandboxed frame, storage turned off); Node has none unless asked.
    const storage = (globalThis as { localStorage?: Storage }).localStorage;
    return typeof storage?.getItem === 'function' ? storage : undefined;
  } catch {
    return undefined;
  }
}

export function isResumeState(value: unknown): value is ResumeState {
  const state = value as Partial<ResumeState> | null;
  return (
    typeof state?.fileId === 'string' &&
    typeof state.resumableUrl === 'string' &&
    typeof state.createdAt === 'number'
  );
}
