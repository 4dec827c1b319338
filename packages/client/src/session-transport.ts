import type { Call, LoginResult } from './api-shapes.ts';
import { type CofferClientOptions, type Session, toSession } from './client-options.ts';
import { CofferError, toCofferError, unreachable } from './errors.ts';
import { toHeaders, toQuery } from './request-paths.ts';

/**
 * The client's session and its calls: each JSON call carries the app's credentials and, when
 * it needs one, the session's token; a call that finds the token expired refreshes the session
 * once (one refresh for every call that found it so at once) and is sent again.
 */
export class SessionTransport {
  readonly options: CofferClientOptions;
  readonly fetch: typeof fetch;
  #session: Session | undefined;
  #refreshing: Promise<Session> | undefined;

  constructor(options: CofferClientOptions) {
    this.options = { ...options, baseUrl: options.baseUrl.replace(/\/+$/, '') };
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#session = options.session;
  }

  get session(): Session | undefined {
    return this.#session;
  }

  /** Keeps a login's (or refresh's) session and tells the app (onSession). */
  startSession(result: Session): Session {
    const session = toSession(result);
    this.setSession(session);
    return session;
  }

  setSession(session: Session | undefined): void {
    this.#session = session;
    this.options.onSession?.(session);
  }

  /** Trades the refresh token for a new session. */
  refresh(): Promise<Session> {
    const refreshToken = this.#session?.refreshToken;
    if (!refreshToken) return Promise.reject(new CofferError(401, 'AUTH_REQUIRED', 'Not logged in'));
    // One refresh for every call that found the token expired at once (a refresh token is single use).
    this.#refreshing ??= this.call<LoginResult>({
      method: 'POST',
      path: '/api/v1/auth/refresh',
      body: { refreshToken },
    })
      .then((result) => this.startSession(result))
      .finally(() => {
        this.#refreshing = undefined;
      });
    return this.#refreshing;
  }

  /** Where and how the event stream connects: this session's headers, refreshed as calls are. */
  eventStream() {
    return {
      url: `${this.options.baseUrl}/api/v1/events`,
      fetch: this.fetch,
      headers: (): Record<string, string> => {
        if (!this.#session) throw new CofferError(401, 'AUTH_REQUIRED', 'Not logged in');
        return toHeaders(this.options, this.#session.token);
      },
      refresh: async (): Promise<boolean> => {
        if (!this.#session?.refreshToken) return false;
        await this.refresh();
        return true;
      },
    };
  }

  /** Sends a JSON call; answers its body (undefined for 204), or throws a CofferError. */
  readonly call = async <T>(call: Call, retried = false): Promise<T> => {
    if (call.auth && !call.bearer && !this.#session)
      throw new CofferError(401, 'AUTH_REQUIRED', 'Not logged in');
    const headers = toHeaders(this.options, call.bearer ?? (call.auth ? this.#session?.token : undefined));
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.fetch(this.options.baseUrl + call.path + toQuery(call.query), {
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
    }).catch((error: unknown) => {
      throw unreachable(`${call.method} ${call.path}`, this.options.baseUrl, error);
    });
    if (response.ok) return (response.status === 204 ? undefined : await response.json()) as T;
    const error = await toCofferError(response);
    if (call.auth && !retried && error.code === 'TOKEN_EXPIRED' && this.#session?.refreshToken) {
      await this.refresh();
      return this.call(call, true);
    }
    if (error.code === 'INVALID_REFRESH_TOKEN') this.setSession(undefined);
    throw error;
  };
}
