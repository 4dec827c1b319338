/**
 * @simplewebauthn/server, loaded by the first passkey call of the process: with the ASN.1 and
 * X.509 packages it stands on it is about 290 modules and 0.34 s of CPU, which every worker,
 * test server and command would otherwise pay at start whether or not anyone uses a passkey.
 */
type WebAuthn = typeof import('@simplewebauthn/server');

let loading: Promise<WebAuthn> | undefined;

export function loadWebAuthn(): Promise<WebAuthn> {
  loading ??= import('@simplewebauthn/server');
  return loading;
}
