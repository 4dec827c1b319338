import type { Actor } from '../events/event.ts';
import { toUserEvent } from '../events/user-events.ts';
import type { MfaRepository } from './mfa-repository.ts';

/**
 * Removes a user's second factors, recovery codes and waiting sign-ins, recording
 * `user.mfa_disabled` with who did it: the user, or an operator (the console, `coffer user
 * mfa-reset`). False when the user had no factor (nothing recorded).
 */
export function resetFactors(
  mfa: MfaRepository,
  user: { projectId: string; id: string; role?: string },
  by: Actor,
  at: Date,
): Promise<boolean> {
  const event = toUserEvent('user.mfa_disabled', by, user, at, { method: 'totp' });
  return mfa.removeFactors({ projectId: user.projectId, userId: user.id }, event);
}
