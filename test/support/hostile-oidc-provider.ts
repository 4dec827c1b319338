import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

/** What one authorization sent to the hostile provider, as its token endpoint sees it. */
export type HostileGrant = { issuer: string; clientId: string; nonce: string | undefined };

/** One scenario of the hostile provider: its own issuer `<origin>/<name>`, and how it misbehaves. */
export type HostileScenario = {
  /** Fields added to (or replacing) the discovery document's. */
  metadata?: Record<string, unknown>;
  /** Parameters added to the redirect back to the client (`iss` of another issuer: a mix-up). */
  callbackParams?: Record<string, string>;
  /** A step that never answers (the request is held until the client gives up or the server stops). */
  hold?: 'discovery' | 'token';
  /** The token endpoint's answer; by default a correct ID token (`signedIdToken(grant)`). */
  answer?: (grant: HostileGrant) => Promise<{ status: number; body: unknown }>;
};

/**
 * A deliberately hostile OpenID Connect provider on loopback (issue 37's Rules): a plain
 * node:http server with a discovery document, a JWKS made by `jose`, an authorization endpoint
 * that redirects straight back to the client with a code and the state it was given, and a
 * token endpoint that answers whatever ID token the scenario crafts (signed, unsigned, with a
 * foreign key…). Every request is counted per scenario; held requests are reported.
 */
export async function startHostileProvider(scenarios: Record<string, HostileScenario>) {
  const key = await generateKeyPair('RS256', { extractable: true });
  const kid = 'hostile-1';
  const publicJwk: JWK = { ...(await exportJWK(key.publicKey)), kid, alg: 'RS256', use: 'sig' };
  const publicPem = await exportSPKI(key.publicKey);
  const clientId = 'coffer-hostile';
  const clientSecret = 'coffer-hostile-secret-coffer-hostile-secret';
  const codes = new Map<string, HostileGrant>();
  const counts = new Map<string, number>();
  const heldWaiters = new Map<string, Array<() => void>>();
  const heldResponses = new Set<http.ServerResponse>();

  const server = http.createServer((request, response) => {
    request.on('error', () => response.destroy());
    response.on('error', () => {});
    const url = new URL(request.url ?? '/', origin);
    const [, name = '', ...rest] = url.pathname.split('/');
    const scenario = scenarios[name];
    counts.set(name, (counts.get(name) ?? 0) + 1);
    const step = rest.join('/');
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (!scenario) return json(404, { error: 'no such scenario' });
    const issuer = `${origin}/${name}`;
    const hold = () => {
      heldResponses.add(response);
      response.on('close', () => heldResponses.delete(response));
      for (const notify of heldWaiters.get(name) ?? []) notify();
      heldWaiters.delete(name);
    };
    if (step === '.well-known/openid-configuration') {
      if (scenario.hold === 'discovery') return hold();
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['client_secret_post'],
        code_challenge_methods_supported: ['S256'],
        ...scenario.metadata,
      });
    }
    if (step === 'jwks') return json(200, { keys: [publicJwk] });
    if (step === 'authorize') {
      const code = randomBytes(16).toString('base64url');
      codes.set(code, {
        issuer,
        clientId: url.searchParams.get('client_id') ?? '',
        nonce: url.searchParams.get('nonce') ?? undefined,
      });
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      for (const [param, value] of Object.entries(scenario.callbackParams ?? {}))
        back.searchParams.set(param, value);
      return response.writeHead(302, { location: back.href }).end();
    }
    if (step === 'token' && request.method === 'POST') {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => {
        body += chunk;
      });
      request.on('end', () => {
        if (scenario.hold === 'token') return hold();
        const form = new URLSearchParams(body);
        const grant = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (!grant || !form.get('code_verifier') || form.get('client_secret') !== clientSecret)
          return json(400, { error: 'invalid_grant' });
        const answer =
          scenario.answer ?? (async (one: HostileGrant) => tokenAnswer(await signedIdToken(one)));
        answer(grant).then(
          (result) => json(result.status, result.body),
          (error: unknown) => json(500, { error: 'server_error', error_description: String(error) }),
        );
      });
      return;
    }
    json(404, { error: 'not found' });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** The claims a correct ID token of this grant carries; `overrides` change or (undefined) drop them. */
  function claimsOf(grant: HostileGrant, overrides: Record<string, unknown> = {}): JWTPayload {
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      iss: grant.issuer,
      aud: grant.clientId,
      sub: 'mallory',
      nonce: grant.nonce,
      iat: now,
      exp: now + 600,
      email: 'mallory@example.com',
      email_verified: true,
      name: 'Mallory',
      ...overrides,
    };
    for (const [claim, value] of Object.entries(claims)) if (value === undefined) delete claims[claim];
    return claims;
  }

  /** An ID token signed by the provider's key (or `privateKey`, one the JWKS lacks), under its kid. */
  function signedIdToken(
    grant: HostileGrant,
    overrides: Record<string, unknown> = {},
    privateKey: CryptoKey = key.privateKey,
  ): Promise<string> {
    return new SignJWT(claimsOf(grant, overrides))
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .sign(privateKey);
  }

  return {
    origin,
    clientId,
    clientSecret,
    publicJwk,
    publicPem,
    issuer: (name: string) => `${origin}/${name}`,
    claimsOf,
    signedIdToken,
    /** Requests this scenario received, discovery and keys included. */
    requests: (name: string) => counts.get(name) ?? 0,
    /** TCP connections accepted, whatever came over them (a TLS hello to this plain server too). */
    get connections() {
      return connections;
    },
    /** Resolves once a request of this scenario is being held. */
    held: (name: string) =>
      new Promise<void>((resolve) => heldWaiters.set(name, [...(heldWaiters.get(name) ?? []), resolve])),
    stop: async () => {
      for (const response of heldResponses) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type HostileProvider = Awaited<ReturnType<typeof startHostileProvider>>;

/** A token endpoint's answer carrying this ID token. */
export function tokenAnswer(idToken: string): { status: number; body: unknown } {
  return {
    status: 200,
    body: {
      access_token: randomBytes(16).toString('base64url'),
      token_type: 'Bearer',
      expires_in: 300,
      id_token: idToken,
    },
  };
}
