import type { LoginResult, UserProfile } from './api-shapes.ts';
import type { Session } from './client-options.ts';
import { CofferError } from './errors.ts';
import type { SessionTransport } from './session-transport.ts';
import {
  newClientState,
  type OpenSignInWindow,
  openBrowserPopup,
  PendingSignIns,
  waitUntilClosed,
} from './sign-in-window.ts';

/**
 * How a provider sign-in runs. `popup`: in a popup (`true`: `window.open`; or a function that
 * opens one), the page staying where it is; `redirectTo`: the page itself goes to the provider
 * and comes back to `redirectTo` (an allowed origin's page), which calls `finishSignIn`.
 */
export type SignInOptions =
  | { popup: true | OpenSignInWindow; signal?: AbortSignal }
  | { redirectTo: string; navigate?: (url: string) => void };

/**
 * Sign-in with identity providers (`client.auth`, issue 37): the popup or redirect flow the
 * Selfbits SDKs run (`GET /api/v1/oauth/:provider` then `…/token?state=`), linking and
 * unlinking a provider, and turning a guest account into a member.
 */
export class AuthCalls {
  readonly #transport: SessionTransport;
  readonly #pending: PendingSignIns;

  constructor(transport: SessionTransport) {
    this.#transport = transport;
    this.#pending = new PendingSignIns(transport.options.appId);
  }

  /**
   * Signs in with the provider (a project's `oauth.<name>`). With `popup`, call it straight
   * from the user's click: the popup opens before anything is awaited, or browsers block it;
   * answers the session once the popup closed. With `redirectTo`, the page leaves (the promise
   * never settles); the page it comes back to calls `finishSignIn`.
   */
  signInWith(provider: string, options: SignInOptions): Promise<Session> {
    return this.#run(provider, options, false);
  }

  /**
   * The same flow for the signed-in user: the provider is linked to this account (409
   * IDENTITY_IN_USE if another account has it); a guest account becomes a member.
   */
  linkProvider(provider: string, options: SignInOptions): Promise<Session> {
    if (!this.#transport.session) return Promise.reject(notSignedIn());
    return this.#run(provider, options, true);
  }

  /**
   * On the page a redirect sign-in came back to: fetches the session. `state` is the page's
   * `?state=` (read from `location` when left out); it must be the one this tab started,
   * else SIGN_IN_STATE_MISMATCH (security: another's link must not sign this browser in as them).
   */
  async finishSignIn(provider: string, state?: string): Promise<Session> {
    const returned = state ?? new URLSearchParams(globalThis.location?.search ?? '').get('state') ?? '';
    const pending = this.#pending.take(provider);
    if (!pending || pending.state !== returned)
      throw new CofferError(0, 'SIGN_IN_STATE_MISMATCH', `No ${provider} sign-in of this tab has that state`);
    return this.#takeSession(provider, pending.state, pending.link);
  }

  /** Removes the provider from the signed-in user (409 LAST_SIGN_IN_METHOD if it is their only way in). */
  async unlinkProvider(provider: string): Promise<void> {
    await this.#transport.call({ method: 'DELETE', path: `${oauthPath(provider)}/unlink`, auth: true });
  }

  /** A guest (anonymous) account becomes a member with this email and password: same user, files kept. */
  async convertAnonymous(input: { email: string; password: string }): Promise<Session> {
    const result = await this.#transport.call<LoginResult>({
      method: 'POST',
      path: '/api/v1/auth/signup/anonymous/convert',
      body: input,
      auth: true,
    });
    return this.#transport.startSession(result);
  }

  #run(provider: string, options: SignInOptions, link: boolean): Promise<Session> {
    const state = newClientState();
    const start = this.#startUrl(provider, state, 'redirectTo' in options ? options.redirectTo : undefined);
    if ('redirectTo' in options) {
      this.#pending.remember(provider, { state, link });
      (options.navigate ?? ((url) => globalThis.location.assign(url)))(start);
      return new Promise<Session>(() => {});
    }
    // Synchronous up to here: window.open must run within the user's click.
    const popup = (options.popup === true ? openBrowserPopup : options.popup)(start);
    if (!popup)
      return Promise.reject(
        new CofferError(0, 'POPUP_BLOCKED', 'The browser blocked the sign-in popup: call this from a click'),
      );
    return waitUntilClosed(popup, options.signal).then(() => this.#takeSession(provider, state, link));
  }

  /** The popup's start URL: a navigation sends no headers, so the app id is in the query (never the secret). */
  #startUrl(provider: string, state: string, redirectTo: string | undefined): string {
    const query = new URLSearchParams({ state, sb_app_id: this.#transport.options.appId });
    if (redirectTo !== undefined) query.set('redirectTo', redirectTo);
    return `${this.#transport.options.baseUrl}${oauthPath(provider)}?${query}`;
  }

  async #takeSession(provider: string, state: string, link: boolean): Promise<Session> {
    const path = `${oauthPath(provider)}/token`;
    if (!link) {
      // No bearer: a valid one would link the identity to whoever is signed in.
      const result = await this.#transport.call<LoginResult>({ method: 'GET', path, query: { state } });
      return this.#transport.startSession(result);
    }
    // The server ignores an expired bearer here and signs in instead of linking, so the token
    // must be good: a call that finds it expired refreshes it (whatever this machine's clock says).
    const { _id: userId } = await this.#transport.call<UserProfile>({
      method: 'GET',
      path: '/api/v1/user',
      auth: true,
    });
    const result = await this.#transport.call<LoginResult>({
      method: 'GET',
      path,
      query: { state },
      auth: true,
    });
    if (result.userId !== userId)
      throw new CofferError(
        0,
        'IDENTITY_NOT_LINKED',
        `The ${provider} sign-in was not linked to this account`,
      );
    return this.#transport.startSession(result);
  }
}

const oauthPath = (provider: string) => `/api/v1/oauth/${encodeURIComponent(provider)}`;

const notSignedIn = () => new CofferError(401, 'AUTH_REQUIRED', 'Not logged in');
