import type { PasskeyRepository } from '../passkeys/passkey-repository.ts';
import type { MfaRepository } from './mfa-repository.ts';

/** A way to pass the second step of a sign-in (the answer's `methods`, issue 41). */
export type SecondFactorMethod = 'totp' | 'recoveryCode' | 'passkey';

/**
 * The second factors a user has; none: a sign-in needs no second step. The one place that
 * says which factors count. A passkey counts where a second step is due anyway (the user has
 * TOTP, or the project requires a factor): a passkey sign-in then passes it, being two factors
 * in itself. Elsewhere a passkey is a convenience, and the password alone still signs in
 * (docs/decisions.md, "Passkeys and the second step").
 */
export async function secondFactorMethodsOf(
  user: { projectId: string; id: string },
  stores: { mfa: MfaRepository; passkeys?: Pick<PasskeyRepository, 'listByUser'> },
  requireMfa = false,
): Promise<SecondFactorMethod[]> {
  const totp = await stores.mfa.findTotp({ projectId: user.projectId, userId: user.id });
  const methods: SecondFactorMethod[] = totp?.secret !== undefined ? ['totp', 'recoveryCode'] : [];
  if ((methods.length > 0 || requireMfa) && stores.passkeys) {
    const passkeys = await stores.passkeys.listByUser(user.projectId, user.id);
    if (passkeys.length > 0) methods.push('passkey');
  }
  return methods;
}
