import type { MfaRepository } from './mfa-repository.ts';

/** A way to pass the second step of a sign-in (the answer's `methods`, issue 41). */
export type SecondFactorMethod = 'totp' | 'recoveryCode' | 'passkey';

/**
 * The second factors a user has; none: a sign-in needs no second step. The one place that
 * says which factors count (the passkey part adds `passkey` here).
 */
export async function secondFactorMethodsOf(
  user: { projectId: string; id: string },
  stores: { mfa: MfaRepository },
): Promise<SecondFactorMethod[]> {
  const totp = await stores.mfa.findTotp({ projectId: user.projectId, userId: user.id });
  return totp?.secret !== undefined ? ['totp', 'recoveryCode'] : [];
}
