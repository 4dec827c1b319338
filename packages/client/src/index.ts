import type { components } from './api-types.ts';
import { CofferError, fromErrorText, toCofferError } from './errors.ts';
import { putContent, type UploadBody, type UploadProgress } from './put-content.ts';

export { CofferError } from './errors.ts';
export type { UploadBody, UploadProgress } from './put-content.ts';

type Schemas = components['schemas'];
export type FileRecord = Schemas['FileRecord'];
export type FileWithLink = Schemas['FileWithLink'];
export type LoginResult = Schemas['LoginResult'];
export type UserProfile = Schemas['UserProfile'];
export type UploadTicket = Schemas['UploadTicket'];
export type FilePage = Schemas['FilePage'];

/** What a client keeps of a login; persist it (and pass it back) to survive a page reload. */
export type Session = { token: string; refreshToken: string; userId: string; expiresAt: number };

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
  /** Another fetch (tests, proxies); the global one by default. */
  fetch?: typeof fetch;
};

export type UploadOptions = {
  permissionScope?: 'user' | '*';
  /** The content's type; a Blob's own type, else `application/octet-stream`. */
  contentType?: string;
  onProgress?: (progress: UploadProgress) => void;
  /** How many times a failed PUT is tried again (network errors, 5xx), with backoff. Default 3. */
  retries?: number;
  signal?: AbortSignal;
};

type Call = {
  method: string;
  path: string;
  body?: unknown;
  auth?: boolean;
  query?: Record<string, string | number | undefined>;
};

/**
 * A typed client for Coffer's API: sessions (login, signup, automatic refresh), the whole
 * upload in one call, downloads, sharing and listing. Depends on nothing but `fetch` (and
 * XMLHttpRequest in browsers, for upload progress).
 */
export class CofferClient {
  readonly #options: CofferClientOptions;
  readonly #fetch: typeof fetch;
  #session: Session | undefined;
  #refreshing: Promise<Session> | undefined;

  constructor(options: CofferClientOptions) {
    this.#options = { ...options, baseUrl: options.baseUrl.replace(/\/+$/, '') };
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#session = options.session;
  }

  get session(): Session | undefined {
    return this.#session;
  }

  // Sessions

  async signup(input: { email: string; password: string; displayName?: string }): Promise<Session> {
    return this.#startSession(
      await this.#call<LoginResult>({ method: 'POST', path: '/api/v1/auth/signup', body: input }),
    );
  }

  async login(input: { email: string; password: string }): Promise<Session> {
    return this.#startSession(
      await this.#call<LoginResult>({ method: 'POST', path: '/api/v1/auth/login', body: input }),
    );
  }

  /** Ends the session on the server too (its refresh token stops working). */
  async logout(): Promise<void> {
    const session = this.#session;
    this.#setSession(undefined);
    if (session)
      await this.#call({
        method: 'POST',
        path: '/api/v1/auth/logout',
        body: { refreshToken: session.refreshToken },
      });
  }

  /** Trades the refresh token for a new session; calls do it by themselves when a token expires. */
  refresh(): Promise<Session> {
    const refreshToken = this.#session?.refreshToken;
    if (!refreshToken) return Promise.reject(new CofferError(401, 'AUTH_REQUIRED', 'Not logged in'));
    // One refresh for every call that found the token expired at once (a refresh token is single use).
    this.#refreshing ??= this.#call<LoginResult>({
      method: 'POST',
      path: '/api/v1/auth/refresh',
      body: { refreshToken },
    })
      .then((result) => this.#startSession(result))
      .finally(() => {
        this.#refreshing = undefined;
      });
    return this.#refreshing;
  }

  async changePassword(input: { oldPassword: string; newPassword: string }): Promise<void> {
    await this.#call({ method: 'POST', path: '/api/v1/auth/password', body: input, auth: true });
  }

  profile(): Promise<UserProfile> {
    return this.#call({ method: 'GET', path: '/api/v1/user', auth: true });
  }

  // Files

  /** Requests the upload, PUTs the content (retrying), verifies it: answers the readable record. */
  async upload(filePath: string, body: UploadBody, options: UploadOptions = {}): Promise<FileRecord> {
    const ticket = await this.#call<UploadTicket>({
      method: 'POST',
      path: '/api/v1/file',
      body: { filePath, permissionScope: options.permissionScope ?? 'user' },
      auth: true,
    });
    const contentType =
      options.contentType ?? (body instanceof Blob && body.type ? body.type : 'application/octet-stream');
    const etag = await this.#putWithRetries(ticket.putFileUrl, body, contentType, options);
    return this.#call({
      method: 'POST',
      path: `/api/v1/file/${ticket.fileId}/verify`,
      body: { etag },
      auth: true,
    });
  }

  /** The record and a signed download link (valid `expiresInSeconds`, default 900). */
  get(fileId: string, options: { expiresInSeconds?: number } = {}): Promise<FileWithLink> {
    return this.#call({
      method: 'GET',
      path: `/api/v1/file/${encodeURIComponent(fileId)}`,
      query: { expiresInSeconds: options.expiresInSeconds },
      auth: true,
    });
  }

  /** The content, through a fresh signed link (a Response: `.blob()`, `.text()`, `.body`). */
  async download(fileId: string, options: { signal?: AbortSignal } = {}): Promise<Response> {
    const { url } = await this.get(fileId, { expiresInSeconds: 60 });
    const response = await this.#fetch(url, { signal: options.signal }).catch((error: unknown) => {
      throw new CofferError(0, 'NETWORK_ERROR', 'The download could not reach the server', { cause: error });
    });
    if (!response.ok) throw await toCofferError(response);
    return response;
  }

  share(fileId: string, with_: { userId: string } | { role: string }): Promise<FileRecord> {
    return this.#call({ method: 'POST', path: aclPath(fileId, with_), auth: true });
  }

  /** Removes the entry (204: nothing to answer); removing an absent one is no error. */
  async unshare(fileId: string, with_: { userId: string } | { role: string }): Promise<void> {
    await this.#call({ method: 'DELETE', path: aclPath(fileId, with_), auth: true });
  }

  async delete(fileId: string): Promise<void> {
    await this.#call({ method: 'DELETE', path: `/api/v1/file/${encodeURIComponent(fileId)}`, auth: true });
  }

  /** One page of the files the caller may read, newest first. */
  listPage(options: { filePath?: string; pageSize?: number; pageNumber?: number } = {}): Promise<FilePage> {
    return this.#call({ method: 'GET', path: '/api/v1/file', query: options, auth: true });
  }

  /** Every file the caller may read, newest first, a page at a time: `for await (const file of client.list())`. */
  async *list(options: { filePath?: string; pageSize?: number } = {}): AsyncGenerator<FileRecord> {
    for (let pageNumber = 1; ; pageNumber++) {
      const page = await this.listPage({ ...options, pageNumber });
      yield* page.docs;
      if (page.docs.length === 0 || pageNumber >= page.pages) return;
    }
  }

  // Plumbing

  async #putWithRetries(
    url: string,
    body: UploadBody,
    contentType: string,
    options: UploadOptions,
  ): Promise<string> {
    const retries = options.retries ?? 3;
    for (let attempt = 0; ; attempt++) {
      let failure: CofferError;
      try {
        const put = await putContent(url, body, {
          contentType,
          onProgress: options.onProgress,
          signal: options.signal,
          fetch: this.#fetch,
        });
        if (put.status >= 200 && put.status < 300 && put.etag) return put.etag;
        failure = fromErrorText(put.status, put.text);
        if (put.status < 500) throw failure; // the link, the size or the content: trying again changes nothing
      } catch (error) {
        if (error instanceof CofferError && error.status > 0 && error.status < 500) throw error;
        if (options.signal?.aborted) throw error;
        failure =
          error instanceof CofferError
            ? error
            : new CofferError(0, 'NETWORK_ERROR', 'The upload could not reach the server', { cause: error });
      }
      if (attempt >= retries) throw failure;
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    }
  }

  #startSession(result: LoginResult): Session {
    const session = {
      token: result.token,
      refreshToken: result.refreshToken,
      userId: result.userId,
      expiresAt: result.expiresAt,
    };
    this.#setSession(session);
    return session;
  }

  #setSession(session: Session | undefined): void {
    this.#session = session;
    this.#options.onSession?.(session);
  }

  async #call<T>(call: Call, retried = false): Promise<T> {
    const headers: Record<string, string> = { 'sb-app-id': this.#options.appId };
    if (this.#options.appSecret) headers['sb-app-secret'] = this.#options.appSecret;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.auth) {
      if (!this.#session) throw new CofferError(401, 'AUTH_REQUIRED', 'Not logged in');
      headers.authorization = `Bearer ${this.#session.token}`;
    }
    const response = await this.#fetch(this.#options.baseUrl + call.path + toQuery(call.query), {
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
    }).catch((error: unknown) => {
      throw new CofferError(0, 'NETWORK_ERROR', `${call.method} ${call.path} could not reach the server`, {
        cause: error,
      });
    });
    if (response.ok) return (response.status === 204 ? undefined : await response.json()) as T;
    const error = await toCofferError(response);
    if (call.auth && !retried && error.code === 'TOKEN_EXPIRED' && this.#session?.refreshToken) {
      await this.refresh();
      return this.#call(call, true);
    }
    if (error.code === 'INVALID_REFRESH_TOKEN') this.#setSession(undefined);
    throw error;
  }
}

function aclPath(fileId: string, with_: { userId: string } | { role: string }): string {
  const [scope, identifier] = 'userId' in with_ ? ['user', with_.userId] : ['role', with_.role];
  return `/api/v1/file/${encodeURIComponent(fileId)}/acl/${scope}/${encodeURIComponent(identifier)}`;
}

function toQuery(query: Call['query']): string {
  const entries = Object.entries(query ?? {}).filter(
    (entry): entry is [string, string | number] => entry[1] !== undefined,
  );
  return entries.length === 0
    ? ''
    : `?${new URLSearchParams(entries.map(([key, value]) => [key, String(value)]))}`;
}
