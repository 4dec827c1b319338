import type { StoredEvent } from './event.ts';

/**
 * The addresses of the people a page of the audit log names, found in one batched read per
 * kind (never a read a row): users of the project and operators, by id.
 */
export interface AuditPeople {
  emailsOf(
    projectId: string,
    ids: { users: readonly string[]; operators: readonly string[] },
  ): Promise<{ users: ReadonlyMap<string, string>; operators: ReadonlyMap<string, string> }>;
}

/** Who acted, as a person reads it, beside the ids the entry already has. */
export type ActorPerson = {
  /** The user's or operator's email now; for a user since deleted, the email the event recorded, else null. */
  email: string | null;
  /** The email, the service key's name or the app id; null for the system or someone gone. */
  name: string | null;
};

/** The user an event is about (its data.userId), with their email (null as for the actor). */
export type SubjectPerson = { userId: string; email: string | null } | null;

/** Each event's actor and subject user as people, in the page's order (docs/decisions.md). */
export async function findPeople(
  people: AuditPeople,
  projectId: string,
  events: readonly StoredEvent[],
): Promise<{ actor: ActorPerson; subject: SubjectPerson }[]> {
  const userIds = new Set<string>();
  const operatorIds = new Set<string>();
  for (const event of events) {
    if (event.actor.kind === 'user' && event.actor.id) userIds.add(event.actor.id);
    if (event.actor.kind === 'operator' && event.actor.id) operatorIds.add(event.actor.id);
    const subject = subjectId(event);
    if (subject) userIds.add(subject);
  }
  const found =
    userIds.size + operatorIds.size === 0
      ? { users: new Map<string, string>(), operators: new Map<string, string>() }
      : await people.emailsOf(projectId, { users: [...userIds], operators: [...operatorIds] });
  return events.map((event) => {
    const { kind, id } = event.actor;
    const recorded = recordedEmail(event);
    const email =
      id === null
        ? null
        : kind === 'operator'
          ? (found.operators.get(id) ?? null)
          : kind === 'user'
            ? (found.users.get(id) ?? (id === subjectId(event) ? recorded : null))
            : null;
    const name = email ?? (kind === 'service-key' || kind === 'app' ? id : null);
    const subject = subjectId(event);
    return {
      actor: { email, name },
      subject: subject ? { userId: subject, email: found.users.get(subject) ?? recorded } : null,
    };
  });
}

function subjectId(event: StoredEvent): string | null {
  const { userId } = event.data;
  return typeof userId === 'string' && userId ? userId : null;
}

/** The address an event about a user wrote down at the time (user.email_changed's `email`), if any. */
function recordedEmail(event: StoredEvent): string | null {
  const { email } = event.data;
  return typeof email === 'string' && email ? email : null;
}
