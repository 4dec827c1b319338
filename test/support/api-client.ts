import http from 'node:http';

/** A small HTTP client for tests: app credentials on every call, an optional bearer token. */
export type AppCredentials = { projectId: string; appId: string; appSecret: string };

// biome-ignore lint/suspicious/noExplicitAny: tests read response bodies field by field
export type ApiResponse = { status: number; headers: Headers; body: any; text: string };

export type CallOptions = {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Send no app credentials at all. */
  anonymous?: boolean;
  /** A service key (csk_…): sent as the bearer token with the app id, and no app secret. */
  serviceKey?: string;
  /**
   * Connect from this local address, e.g. 127.0.0.2 (all of 127/8 is loopback on Linux): the
   * server sees it as the client address. fetch cannot choose one, so node:http sends these.
   */
  localAddress?: string;
};

export class ApiClient {
  readonly baseUrl: string;
  readonly credentials: AppCredentials;

  constructor(baseUrl: string, credentials: AppCredentials) {
    this.baseUrl = baseUrl;
    this.credentials = credentials;
  }

  async call(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = {};
    if (!options.anonymous) {
      headers['sb-app-id'] = this.credentials.appId;
      if (options.serviceKey === undefined) headers['sb-app-secret'] = this.credentials.appSecret;
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.serviceKey) headers.authorization = `Bearer ${options.serviceKey}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    Object.assign(headers, options.headers);
    const url = `${this.baseUrl}${path}`;
    if (options.localAddress !== undefined)
      return sendFrom(options.localAddress, url, { method, headers, body });
    return toApiResponse(await fetch(url, { method, headers, body }));
  }

  /** Signs up a fresh user; answers its tokens and id. */
  async signup(
    email = `${Math.random().toString(36).slice(2)}@example.com`,
    password = 'correct horse battery',
  ) {
    const response = await this.call('POST', '/api/v1/auth/signup', { body: { email, password } });
    if (response.status !== 200) throw new Error(`signup failed: ${response.status} ${response.text}`);
    return {
      token: response.body.token as string,
      refreshToken: response.body.refreshToken as string,
      userId: response.body.userId as string,
      email,
      password,
    };
  }

  /** Requests an upload, PUTs the content raw, verifies it: answers the verified record. */
  async uploadFile(
    token: string,
    filePath: string,
    content: string | Buffer,
    options: { permissionScope?: string; contentType?: string } = {},
  ) {
    const requested = await this.call('POST', '/api/v1/file', {
      token,
      body: { filePath, permissionScope: options.permissionScope ?? 'user' },
    });
    if (requested.status !== 200)
      throw new Error(`upload request failed: ${requested.status} ${requested.text}`);
    const put = await fetch(requested.body.putFileUrl, {
      method: 'PUT',
      body: content as BodyInit,
      headers: { 'content-type': options.contentType ?? 'text/plain' },
    });
    if (put.status !== 200) throw new Error(`PUT failed: ${put.status} ${await put.text()}`);
    const etag = put.headers.get('etag');
    const verified = await this.call('POST', `/api/v1/file/${requested.body.fileId}/verify`, {
      token,
      body: { etag },
    });
    if (verified.status !== 200) throw new Error(`verify failed: ${verified.status} ${verified.text}`);
    return verified.body as { _id: string; [field: string]: unknown };
  }
}

/** One request on a fresh connection from `localAddress`. */
function sendFrom(
  localAddress: string,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: init.method,
      headers: init.headers,
      localAddress,
      agent: false,
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers))
          for (const one of [value ?? []].flat()) headers.append(name, one);
        const text = Buffer.concat(chunks).toString();
        resolve({ status: response.statusCode ?? 0, headers, body: parseJson(text), text });
      });
    });
    request.end(init.body);
  });
}

export async function toApiResponse(response: Response): Promise<ApiResponse> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: parseJson(text), text };
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
