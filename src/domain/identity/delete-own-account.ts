import { accessDenied } from '../../errors/errors.ts';
import { assertSessionOfUser } from '../accounts/email-change-flows.ts';
import { userActor } from '../events/user-events.ts';
import { type AccountRemoval, type DeleteAccountOptions, deleteAccount } from './delete-account.ts';
import type { Project } from './project-repository.ts';
import type { IdentityProof, Reauthentication } from './reauthentication.ts';
import { type Authenticated, type ClientContext, toClientInfo } from './session-types.ts';

/**
 * DELETE /api/v1/user (issue 41, item 5, Apple's guideline 5.1.1(v)): a user leaves. Where the
 * project allows it (selfDeletion), and once the caller proved it is them (a password, a code
 * of their second factor, or a sign-in within 5 minutes), the account goes exactly as an
 * operator deletes it (delete-account.ts: sessions, files and their bytes, trash, shares), with
 * `user.deleted` saying `method: "self"`. The setting is checked first, so a refused call spends
 * no password attempt.
 */
export async function deleteOwnAccount(
  options: { deletion: DeleteAccountOptions; reauthentication: Pick<Reauthentication, 'confirm'> },
  request: { project: Project; caller: Authenticated; proof: IdentityProof; client: ClientContext },
): Promise<AccountRemoval> {
  const { project, caller, client } = request;
  if (!project.settings.selfDeletion)
    throw accessDenied('This project does not let users delete their own accounts (selfDeletion is off)');
  assertSessionOfUser(caller, 'delete its account');
  await options.reauthentication.confirm(caller, request.proof, client);
  const by = userActor(caller.user.id, toClientInfo(client));
  return deleteAccount(options.deletion, project, caller.user.id, by, { method: 'self' });
}
