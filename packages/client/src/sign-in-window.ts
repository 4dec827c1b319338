import { CofferError } from './errors.ts';

/** What the client needs of the window a sign-in runs in (what `window.open` answers). */
export type SignInWindow = { readonly closed: boolean };

/** Opens the sign-in window at `url`; null when the browser blocked it. */
export type OpenSignInWindow = (url: string) => SignInWindow | null;

/** How often the client looks whether the popup closed (it cannot be told across origins). */
const pollIntervalMs = 300;

/**
 * A popup of the browser's own size for a provider's sign-in page. Called synchronously from
 * the user's click (before any await), or the browser blocks it.
 */
export const openBrowserPopup: OpenSignInWindow = (url) => {
  if (typeof window === 'undefined')
    throw new CofferError(0, 'POPUP_UNAVAILABLE', 'No window to open a popup in: pass popup: (url) => …');
  return window.open(url, 'coffer-sign-in', 'popup,width=520,height=680');
};

/**
 * Resolves once the window closed: Coffer's callback page closes it when the sign-in is done,
 * and the user may close it before. Aborting `signal` rejects with SIGN_IN_CANCELLED.
 */
export function waitUntilClosed(popup: SignInWindow, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cancelled = () => {
      clearTimeout(timer);
      reject(new CofferError(0, 'SIGN_IN_CANCELLED', 'The sign-in was cancelled', { cause: signal?.reason }));
    };
    if (signal?.aborted) return cancelled();
    signal?.addEventListener('abort', cancelled, { once: true });
    const look = () => {
      if (!popup.closed) {
        timer = setTimeout(look, pollIntervalMs);
        return;
      }
      signal?.removeEventListener('abort', cancelled);
      resolve();
    };
    look();
  });
}

/** A client state: 256 random bits, URL-safe (the server takes 8 to 512 characters). */
export function newClientState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** A redirect sign-in this browser started: its state, and whether it links to the session's user. */
export type PendingSignIn = { state: string; link: boolean };

/**
 * Where a redirect sign-in waits for the page it comes back to: `sessionStorage` in browsers
 * (one tab, gone when it closes), else memory (one client object).
 */
export class PendingSignIns {
  readonly #memory = new Map<string, string>();
  readonly #prefix: string;

  constructor(appId: string) {
    this.#prefix = `coffer.signIn.${appId}.`;
  }

  remember(provider: string, pending: PendingSignIn): void {
    const text = JSON.stringify(pending);
    const storage = sessionStore();
    if (storage) storage.setItem(this.#prefix + provider, text);
    else this.#memory.set(provider, text);
  }

  /** The pending sign-in with this provider, forgotten as it is read (a state is spent once). */
  take(provider: string): PendingSignIn | undefined {
    const storage = sessionStore();
    const text = storage ? storage.getItem(this.#prefix + provider) : this.#memory.get(provider);
    if (storage) storage.removeItem(this.#prefix + provider);
    else this.#memory.delete(provider);
    if (!text) return undefined;
    try {
      const pending = JSON.parse(text) as PendingSignIn;
      return typeof pending.state === 'string' ? pending : undefined;
    } catch {
      return undefined;
    }
  }
}

function sessionStore(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    // Storage refused (a sandboxed frame, some privacy settings): memory does for one page.
    return undefined;
  }
}
