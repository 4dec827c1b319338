import type { Project, User } from '../api.ts';
import { Section } from '../ui.tsx';
import { UserFactors } from './user-factors.tsx';
import { UserPasskeys } from './user-passkeys.tsx';
import { UserSessions } from './user-sessions.tsx';

type Props = { project: Project; user: User };

/**
 * The user page's "Security" area (issue 41, item 6): what signs the user in and where they
 * are signed in. Each part is a component of its own file, one line here each.
 */
export function UserSecurity({ project, user }: Props) {
  return (
    <Section title="Security">
      <UserFactors project={project} user={user} />
      <UserPasskeys projectId={project.id} userId={user.userId} email={user.email} />
      <UserSessions project={project} user={user} />
    </Section>
  );
}
