import { randomBytes } from 'node:crypto';
import {
  lastSignInMethod,
  oauthFailed,
  oauthProviderNotFound,
  oauthProviderUnavailable,
  oauthStateNotFound,
  validationFailed,
} from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import { toUserEvent, userActor } from '../events/user-events.ts';
import {
  assertVerifiedWhereRequired,
  type ClientContext,
  type Session,
} from '../identity/identity-service.ts';
import { type OAuthProvider, resolveOAuthProvider } from '../identity/oauth-provider-settings.ts';
import type { Project } from '../identity/project-repository.ts';
import type { User } from '../identity/user-repository.ts';
import type { BucketRule } from '../rate-limits/rate-limit-repository.ts';
import { type TokenBuckets, toBucketKey } from '../rate-limits/token-buckets.ts';
import { type IdentityResolution, resolveIdentity } from './identity-resolution.ts';
import { type AuthorizationSecrets, type ProviderClient, ProviderError } from './provider-client.ts';
import type { OAuthFlow, OAuthFlowRepository, UserIdentityRepository } from './sign-in-repositories.ts';

/** A started flow may wait this long for its callback (the user signs in at the provider meanwhile). */
const authorizationMinutes = 10;
/** Issue 37: the app fetches the token within 5 minutes of the callback, once. */
const tokenMinutes = 5;

export type OAuthSignInOptions = Omit<
  IdentityResolution,
  'project' | 'provider' | 'identity' | 'caller' | 'client'
> & {
  providers: ProviderClient;
  flows: OAuthFlowRepository;
  identities: UserIdentityRepository;
  clock: Clock;
  /** Where the provider sends the browser back: `<public url>/api/v1/oauth/<provider>/callback`. */
  callbackUrl: (provider: string) => string;
  /** Starts and token fetches per client address (a stranger can trigger both). */
  perAddress: { buckets: TokenBuckets; rule: BucketRule };
};

/**
 * Sign-in with identity providers (issue 37), as the Selfbits SDKs drive it: a popup opens
 * `start` (302 to the provider), the provider sends it to `callback` (the code is exchanged and
 * checked; the page closes itself), then the app fetches its token with its own state
 * (`takeToken`), once, within 5 minutes. The app's state is bound to Coffer's own (sent to the
 * provider), the app's project and the provider; PKCE and a nonce bind the code to the flow.
 */
export class OAuthSignIn {
  readonly #o: OAuthSignInOptions;

  constructor(options: OAuthSignInOptions) {
    this.#o = options;
  }

  /** GET /api/v1/oauth/:provider: the provider's authorization URL for a new flow. */
  async start(
    project: Project,
    request: { provider: string; clientState: string; redirectTo?: string; clientAddress: string },
  ): Promise<URL> {
    const provider = this.#provider(project, request.provider);
    if (request.redirectTo !== undefined) assertAllowedRedirect(project, request.redirectTo);
    await this.#charge('oauth-start', project, request.clientAddress);
    const now = this.#o.clock.now();
    const flow: OAuthFlow = {
      id: randomToken(),
      projectId: project.id,
      provider: provider.name,
      clientState: request.clientState,
      codeVerifier: randomToken(),
      nonce: randomToken(),
      redirectTo: request.redirectTo ?? null,
      clientAddress: request.clientAddress,
      expiresAt: new Date(now.getTime() + authorizationMinutes * 60_000),
      identity: null,
    };
    const url = await this.#call(() => this.#o.providers.authorizationUrl(provider, this.#secrets(flow)));
    if (!(await this.#o.flows.create(flow, now)))
      throw validationFailed('this state was used already: start with a new one');
    await this.#o.flows.deleteExpired(now);
    return url;
  }

  /**
   * GET /api/v1/oauth/:provider/callback: the code exchanged and checked, the identity kept on
   * the flow for the token fetch. A state used once (a replayed code) or expired is refused.
   */
  async callback(
    projects: { findById(id: string): Promise<Project | undefined> },
    providerName: string,
    url: URL,
  ) {
    const now = this.#o.clock.now();
    const state = url.searchParams.get('state') ?? '';
    const flow = state === '' ? undefined : await this.#o.flows.findOpen(state, now);
    if (!flow || flow.provider !== providerName)
      throw oauthFailed('this sign-in is unknown, expired or already finished');
    const project = await projects.findById(flow.projectId);
    if (!project) throw oauthFailed('the project is gone');
    const provider = this.#provider(project, providerName);
    const identity = await this.#call(() => this.#o.providers.finish(provider, url, this.#secrets(flow)));
    const tokenDeadline = new Date(now.getTime() + tokenMinutes * 60_000);
    if (!(await this.#o.flows.complete(flow.id, identity, tokenDeadline)))
      throw oauthFailed('this sign-in was finished already');
    return { redirectTo: flow.redirectTo, clientState: flow.clientState };
  }

  /**
   * GET /api/v1/oauth/:provider/token?state=: the session of the identity the flow established,
   * once. `caller`: the user of a valid bearer token sent along, to whom the identity is linked.
   */
  async takeToken(
    project: Project,
    request: { provider: string; clientState: string; caller?: User },
    client: ClientContext,
  ): Promise<Session> {
    await this.#charge('oauth-token', project, client.clientAddress);
    // Bound to the address that started the flow: a start URL with a state an attacker chose,
    // sent to a victim, does not hand the attacker the victim's session from another address.
    const { provider: providerName, clientState } = request;
    const key = {
      projectId: project.id,
      provider: providerName,
      clientState,
      clientAddress: client.clientAddress,
    };
    const flow = await this.#o.flows.take(key, this.#o.clock.now());
    if (!flow?.identity) throw oauthStateNotFound();
    const { provider, identity } = { provider: flow.provider, identity: flow.identity };
    const user = await resolveIdentity({
      ...this.#o,
      project,
      provider,
      identity,
      caller: request.caller,
      client,
    });
    // As a password login: a project that requires verified addresses refuses others.
    assertVerifiedWhereRequired(project, user);
    return this.#o.sessions.signIn(user, project, client, { method: 'oauth', provider });
  }

  /** DELETE /api/v1/oauth/:provider/unlink: never the user's last way to sign in. */
  async unlink(project: Project, user: User, provider: string, client: ClientContext): Promise<void> {
    const identities = await this.#o.identities.listByUser(project.id, user.id);
    if (!identities.some((one) => one.provider === provider)) return;
    if (identities.length === 1 && !this.#o.hasPassword(user)) throw lastSignInMethod();
    const at = this.#o.clock.now();
    const event = toUserEvent('user.identity_unlinked', userActor(user.id), user, at, { provider });
    await this.#o.identities.unlink(project.id, user.id, provider, event);
    void client;
  }

  /** The profile's `providers` (the seed's shape). */
  async providersOf(user: User): Promise<Array<{ id: string; displayName: string; providerName: string }>> {
    const identities = await this.#o.identities.listByUser(user.projectId, user.id);
    return identities.map((one) => ({
      id: one.subject,
      displayName: one.displayName,
      providerName: one.provider,
    }));
  }

  #provider(project: Project, name: string): OAuthProvider {
    const provider = resolveOAuthProvider(project.settings.oauth, name);
    if (!provider) throw oauthProviderNotFound(name);
    return provider;
  }

  #secrets(flow: OAuthFlow): AuthorizationSecrets {
    return {
      state: flow.id,
      nonce: flow.nonce,
      codeVerifier: flow.codeVerifier,
      redirectUri: this.#o.callbackUrl(flow.provider),
    };
  }

  async #call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      throw error.unreachable ? oauthProviderUnavailable(error) : oauthFailed(error.message);
    }
  }

  async #charge(kind: string, project: Project, clientAddress: string): Promise<void> {
    const { buckets, rule } = this.#o.perAddress;
    await buckets.takeAll([{ key: toBucketKey(kind, project.id, clientAddress), rule }], this.#o.clock.now());
  }
}

/** `redirectTo` must be on an origin the project allows (else an open redirect). */
function assertAllowedRedirect(project: Project, redirectTo: string): void {
  const url = URL.parse(redirectTo);
  if (!url || !project.allowedOrigins.includes(url.origin))
    throw validationFailed("redirectTo must be a URL on one of the project's allowed origins");
}

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}
