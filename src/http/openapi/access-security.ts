import type { ErrorCode } from '../../errors/error-codes.ts';
import type { Access } from './operation.ts';

// Who may call an operation, as the OpenAPI document states it: the errors of the barriers it
// passes, and its security alternatives and schemes.

const appBarrier: ErrorCode[] = [
  'APP_CREDENTIALS_REQUIRED',
  'INVALID_APP_CREDENTIALS',
  'ORIGIN_NOT_ALLOWED',
  'HTTPS_REQUIRED',
];
const tokenBarrier: ErrorCode[] = [
  ...appBarrier,
  'AUTH_REQUIRED',
  'INVALID_TOKEN',
  'TOKEN_EXPIRED',
  'ACCOUNT_DISABLED',
];

/** The errors of the barriers an operation passes. */
export const barrierErrors: Record<Access, ErrorCode[]> = {
  public: [],
  app: appBarrier,
  user: tokenBarrier,
  // A token that is not an admin's is refused.
  admin: [...tokenBarrier, 'ACCESS_DENIED'],
  link: ['INVALID_SIGNATURE', 'LINK_EXPIRED', 'HTTPS_REQUIRED'],
  metrics: [],
};

/** Security alternatives (OpenAPI: any one entry of the list suffices; all schemes of an entry together). */
export const security: Record<Access, Record<string, string[]>[]> = {
  public: [],
  // The app barrier takes a service key in place of the secret (app-credentials.ts).
  app: [
    { appId: [], appSecret: [] },
    { appId: [], allowedOrigin: [] },
    { appId: [], serviceKey: [] },
  ],
  // A service key may call what a project admin may, but for what only a user has (a profile,
  // a password, files of its own): those answer it ACCESS_DENIED.
  user: [
    { appId: [], appSecret: [], bearer: [] },
    { appId: [], allowedOrigin: [], bearer: [] },
    { appId: [], serviceKey: [] },
  ],
  admin: [
    { appId: [], serviceKey: [] },
    { appId: [], appSecret: [], bearer: [] },
    { appId: [], allowedOrigin: [], bearer: [] },
  ],
  link: [],
  metrics: [{ metricsToken: [] }, {}],
};

export const securitySchemes = {
  appId: { type: 'apiKey', in: 'header', name: 'sb-app-id', description: "The project's app id" },
  appSecret: {
    type: 'apiKey',
    in: 'header',
    name: 'sb-app-secret',
    description:
      'The app secret of a client app. It ships inside apps, so it is assumed public: it grants only what a signed-out client may do',
  },
  allowedOrigin: {
    type: 'apiKey',
    in: 'header',
    name: 'Origin',
    description: "Browsers: an origin in the project's allowed origins stands in for the secret",
  },
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A user access token' },
  serviceKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'csk_…',
    description:
      'A service key (coffer project key create): a server-only credential that acts as a project admin; refused from browsers (any Origin)',
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'COFFER_METRICS_TOKEN; without it, only a direct loopback client may scrape',
  },
};

/**
 * The access a route's own configuration implies, where it implies one: a data-plane route is
 * called through a signed link, and a control-plane route configured `public` passes the app
 * barrier but needs no token. assertDocumented stops the start where the operations table says
 * otherwise, so the security the document states is the route's, not a hand-kept copy of it.
 */
export function assertAccessOfRoute(
  at: string,
  access: Access,
  route: { url: string; config?: unknown },
): void {
  const link = route.url.startsWith('/blob/');
  const tokenless = (route.config as { public?: boolean } | undefined)?.public === true;
  const implied: Access | undefined = link ? 'link' : tokenless ? 'app' : undefined;
  const mismatched = implied ? access !== implied : access === 'link' || access === 'app';
  if (mismatched)
    throw new Error(
      `${at} is '${access}' in src/http/openapi/operations.ts, but its route ${link ? 'is a signed link' : tokenless ? 'is public (app credentials, no token)' : 'needs a token'}`,
    );
}
