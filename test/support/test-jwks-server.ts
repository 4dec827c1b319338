import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

/**
 * A token issuer for tests: key pairs made by `jose`, their public halves served as a JWKS on
 * loopback (the stock peer of a trusted issuer), and tokens signed with them. Counts how often
 * the JWKS is fetched; `answerWith(500)` makes it fail.
 */
export async function startTestIssuer(options: { issuer: string }) {
  const rsa = await generateKeyPair('RS256', { extractable: true });
  const ec = await generateKeyPair('ES256', { extractable: true });
  const keys: JWK[] = [
    { ...(await exportJWK(rsa.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' },
    { ...(await exportJWK(ec.publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' },
  ];
  let fetches = 0;
  let failWith: number | undefined;
  const server = http.createServer((request, response) => {
    request.on('error', () => response.destroy());
    response.on('error', () => {});
    fetches++;
    if (failWith !== undefined) {
      response.writeHead(failWith).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }));
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;

  const pairs: Record<string, KeyPair> = { 'rsa-1': rsa, 'ec-1': ec };
  return {
    issuer: options.issuer,
    jwksUrl,
    rsa,
    get fetches() {
      return fetches;
    },
    answerWith(status: number | undefined) {
      failWith = status;
    },
    /**
     * A token of this issuer: `sub`, `iss`, an `exp` in 10 minutes and `iat` unless overridden;
     * `kid` picks the key (rsa-1 or ec-1); a kid the JWKS lacks signs with a fresh key.
     */
    async sign(claims: JWTPayload & Record<string, unknown>, header: { kid?: string } = {}) {
      const kid = header.kid ?? 'rsa-1';
      const pair = pairs[kid] ?? (await generateKeyPair('RS256'));
      const alg = kid === 'ec-1' ? 'ES256' : 'RS256';
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: options.issuer, iat: now, exp: now + 600, ...claims })
        .setProtectedHeader({ alg, kid, typ: 'JWT' })
        .sign(pair.privateKey);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type TestIssuer = Awaited<ReturnType<typeof startTestIssuer>>;
