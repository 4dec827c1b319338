import type { OAuthProvider } from '../domain/identity/oauth-provider-settings.ts';
import {
  type AuthorizationSecrets,
  ProviderError,
  type ProviderIdentity,
} from '../domain/sign-in/provider-client.ts';
import type { ProviderFetch } from './provider-fetch.ts';

type OAuth2Provider = OAuthProvider & { kind: 'oauth2' };

/** A provider's answers are small: more than this is not read. */
const maxAnswerBytes = 256 * 1024;

/**
 * OAuth 2.0 with a user API instead of an ID token (GitHub, issue 37): the authorization URL
 * with PKCE and Coffer's state, the code exchanged at the token URL, and the user API asked who
 * signed in. GitHub's `/user` names its numeric `id` (the subject) and login; the address comes
 * from `/user/emails`, the primary one only if GitHub says it is verified.
 */
export function gitHubStyleAuthorizationUrl(
  provider: OAuth2Provider,
  secrets: AuthorizationSecrets,
  challenge: string,
) {
  const url = new URL(provider.authorizationUrl);
  url.search = new URLSearchParams({
    client_id: provider.clientId,
    redirect_uri: secrets.redirectUri,
    response_type: 'code',
    scope: 'read:user user:email',
    state: secrets.state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  return url;
}

export async function finishGitHubStyle(
  provider: OAuth2Provider,
  callbackUrl: URL,
  secrets: AuthorizationSecrets,
  fetch: ProviderFetch,
): Promise<ProviderIdentity> {
  const params = callbackUrl.searchParams;
  if (params.get('state') !== secrets.state) throw new ProviderError('the callback state does not match');
  const error = params.get('error');
  if (error) throw new ProviderError(`the provider refused: ${error}`);
  const code = params.get('code');
  if (!code) throw new ProviderError('the callback carries no code');
  const token = await callJson(fetch, provider.tokenUrl, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: provider.clientId,
      client_secret: provider.clientSecret,
      code,
      redirect_uri: secrets.redirectUri,
      code_verifier: secrets.codeVerifier,
    }).toString(),
  });
  const accessToken = typeof token.access_token === 'string' ? token.access_token : undefined;
  if (!accessToken)
    throw new ProviderError(`the provider gave no access token${token.error ? `: ${token.error}` : ''}`);
  const auth = { accept: 'application/json', authorization: `Bearer ${accessToken}`, 'user-agent': 'Coffer' };
  const user = await callJson(fetch, provider.userinfoUrl, { headers: auth });
  const subject = typeof user.id === 'number' || typeof user.id === 'string' ? String(user.id) : undefined;
  if (!subject) throw new ProviderError('the user API named no id');
  const emails = await callJson(fetch, `${provider.userinfoUrl.replace(/\/$/, '')}/emails`, {
    headers: auth,
  }).catch(() => []);
  const primary = Array.isArray(emails)
    ? emails.find((entry) => entry?.primary === true && typeof entry.email === 'string')
    : undefined;
  const login = typeof user.login === 'string' ? user.login : subject;
  return {
    subject,
    email: primary?.email ?? null,
    emailVerified: primary?.verified === true,
    displayName: (typeof user.name === 'string' && user.name ? user.name : login).slice(0, 200),
  };
}

// biome-ignore lint/suspicious/noExplicitAny: a provider's JSON, read field by field with checks.
async function callJson(fetch: ProviderFetch, url: string, init: RequestInit): Promise<any> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw new ProviderError(`the provider could not be reached: ${(error as Error).message}`, {
      unreachable: true,
      cause: error,
    });
  }
  const text = await response.text();
  if (text.length > maxAnswerBytes) throw new ProviderError('the provider answered too much');
  if (!response.ok) throw new ProviderError(`the provider answered ${response.status}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderError('the provider answered no JSON');
  }
}
