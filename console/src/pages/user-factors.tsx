import { useState } from 'preact/hooks';
import { api, type Project, type User } from '../api.ts';
import { ErrorNote, Section, StatusNote, useAction } from '../ui.tsx';

type Props = { project: Project; user: User };

/**
 * A user's second factors (issue 41): whether an authenticator app (TOTP) is on, and the
 * operator's reset for a user who lost it and their recovery codes. The secret is never shown.
 */
export function UserFactors({ project, user }: Props) {
  const [totp, setTotp] = useState(user.mfa?.totp ?? false);
  const [note, setNote] = useState('');
  const resetting = useAction();
  const reset = () => {
    if (
      !confirm(
        `Remove the second factor of ${user.email}? They sign in with the password alone until they enrol again.`,
      )
    )
      return;
    return resetting.run(async () => {
      await api('POST', `/projects/${project.id}/users/${user.userId}/mfa-reset`);
      setTotp(false);
      setNote(`Second factor of ${user.email} removed.`);
    });
  };
  return (
    <Section title="Two-factor">
      <dl class="record">
        <dt>Authenticator app</dt>
        <dd>{totp ? 'on' : 'off'}</dd>
      </dl>
      {totp && (
        <div class="row">
          <button
            type="button"
            class="danger"
            aria-label={`Reset the second factor of ${user.email}`}
            onClick={reset}
            disabled={resetting.busy}
          >
            Reset two-factor
          </button>
        </div>
      )}
      <ErrorNote error={resetting.error} />
      {note && <StatusNote text={note} />}
    </Section>
  );
}
