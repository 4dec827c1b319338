import type { SendCall } from './account-calls.ts';
import type { components } from './api-types.ts';
import type { Session } from './client-options.ts';

/** A passkey as Coffer lists it. */
export type Passkey = components['schemas']['Passkey'];

/**
 * WebAuthn options as JSON (a challenge good once, for 5 minutes): give them to
 * `startRegistration` / `startAuthentication` of `@simplewebauthn/browser` as `optionsJSON`.
 */
export type PasskeyOptionsJSON = components['schemas']['PasskeyOptions'];

/**
 * Passkeys (`client.passkeys`, issue 41). The client passes WebAuthn's JSON through; the app
 * runs the browser's part with `@simplewebauthn/browser`:
 *
 *     const options = await client.passkeys.signInOptions(email);
 *     await client.passkeys.signIn(await startAuthentication({ optionsJSON: options }));
 */
export class PasskeyCalls {
  readonly #send: SendCall;
  readonly #startSession: (result: Session) => Session;

  constructor(send: SendCall, startSession: (result: Session) => Session) {
    this.#send = send;
    this.#startSession = startSession;
  }

  /** Options to sign in: with an email, its passkeys; without, any passkey the browser holds for the app. */
  signInOptions(email?: string): Promise<PasskeyOptionsJSON> {
    const body = email === undefined ? {} : { email };
    return this.#send({ method: 'POST', path: '/api/v1/auth/passkey/options', body });
  }

  /** Signs in with the browser's answer (`startAuthentication`'s result); never asks for a second factor. */
  async signIn(response: object): Promise<Session> {
    const body = { response };
    return this.#startSession(await this.#send({ method: 'POST', path: '/api/v1/auth/passkey', body }));
  }

  /** Options to register a passkey for the signed-in user. */
  registrationOptions(): Promise<PasskeyOptionsJSON> {
    return this.#send({ method: 'POST', path: '/api/v1/user/passkeys/options', auth: true });
  }

  /** Registers the browser's answer (`startRegistration`'s result), with a name the user will recognise. */
  register(response: object, name?: string): Promise<Passkey> {
    const body = name === undefined ? { response } : { response, name };
    return this.#send({ method: 'POST', path: '/api/v1/user/passkeys', body, auth: true });
  }

  /** The signed-in user's passkeys, oldest first. */
  list(): Promise<Passkey[]> {
    return this.#send({ method: 'GET', path: '/api/v1/user/passkeys', auth: true });
  }

  /** Removes one of the signed-in user's passkeys: it signs in no more. */
  async remove(id: string): Promise<void> {
    await this.#send({
      method: 'DELETE',
      path: `/api/v1/user/passkeys/${encodeURIComponent(id)}`,
      auth: true,
    });
  }
}
