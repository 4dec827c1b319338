import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** An account of the test identity provider: its `sub` is the login typed into its form. */
export type IdpAccount = { email?: string; emailVerified?: boolean; name?: string };

/**
 * A stock OpenID Connect provider (`oidc-provider`, issue 37) on loopback, with its built-in
 * login and consent pages: the tests sign in through them as a browser would. `accounts` decides
 * the claims of each login (default: `<login>@example.com`, verified).
 */
export async function startTestIdp(options: {
  redirectUris: string[];
  accounts?: Record<string, IdpAccount>;
}) {
  const server = http.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = options.accounts ?? {};
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'coffer-test',
        client_secret: 'coffer-test-secret-coffer-test-secret',
        redirect_uris: options.redirectUris,
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['test-idp-cookie-key'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => {
        const account = accounts[sub] ?? {};
        return {
          sub,
          email: account.email ?? `${sub}@example.com`,
          email_verified: account.emailVerified ?? true,
          name: account.name ?? sub,
        };
      },
    }),
  });
  // The provider's own warnings and errors (expected ones included) stay out of the test output.
  provider.on('server_error', () => {});
  server.on('request', provider.callback());
  return {
    issuer,
    clientId: 'coffer-test',
    clientSecret: 'coffer-test-secret-coffer-test-secret',
    provider,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Follows a sign-in from Coffer's start URL through the provider's login and consent forms, as a
 * browser would (its cookies kept per origin), until Coffer's callback answers: that answer.
 */
export async function signInThroughIdp(startUrl: string, login: string): Promise<Response> {
  const cookies = new Map<string, Map<string, string>>();
  const remember = (url: URL, response: Response) => {
    const jar = cookies.get(url.origin) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const equals = pair.indexOf('=');
      jar.set(pair.slice(0, equals).trim(), pair.slice(equals + 1));
    }
    cookies.set(url.origin, jar);
  };
  const send = async (url: URL, init: RequestInit = {}) => {
    const jar = cookies.get(url.origin);
    const cookie = jar ? [...jar].map(([name, value]) => `${name}=${value}`).join('; ') : '';
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    remember(url, response);
    return response;
  };
  let url = new URL(startUrl);
  for (let step = 0; step < 20; step++) {
    const response = await send(url);
    if (url.pathname.endsWith('/callback')) return response;
    const location = response.headers.get('location');
    if (location) {
      await response.body?.cancel();
      url = new URL(location, url);
      continue;
    }
    const page = await response.text();
    const interaction = url.pathname.match(/^\/interaction\/([^/]+)$/);
    if (!interaction)
      throw new Error(`unexpected page at ${url.href}: ${response.status} ${page.slice(0, 200)}`);
    const form: Record<string, string> = page.includes('name="login"')
      ? { prompt: 'login', login, password: 'any' }
      : { prompt: 'consent' };
    const submitted = await send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    const next = submitted.headers.get('location');
    await submitted.body?.cancel();
    if (!next) throw new Error(`the provider's form answered ${submitted.status} with no redirect`);
    url = new URL(next, url);
  }
  throw new Error('the sign-in did not reach the callback in 20 steps');
}
