import { listPasskeys } from './list-passkeys.ts';
import { registerPasskey } from './register-passkey.ts';
import { removePasskey } from './remove-passkey.ts';
import { requestPasskeyOptions } from './request-passkey-options.ts';
import { requestPasskeySignInOptions } from './request-passkey-sign-in-options.ts';
import { signInWithPasskey } from './sign-in-with-passkey.ts';

/** The /api/v1 routes of passkeys (issue 41), in the order they are registered (and documented). */
export const passkeyRoutes = [
  requestPasskeySignInOptions,
  signInWithPasskey,
  requestPasskeyOptions,
  registerPasskey,
  listPasskeys,
  removePasskey,
];
