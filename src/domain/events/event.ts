/**
 * What Coffer records as it happens (issue 22): one table that is the webhooks' outbox, the
 * live stream's source and the audit log at once. Each event is written in the transaction
 * that makes its change, so an event exists exactly when its change committed.
 */
export const eventTypes = [
  'file.uploaded',
  'file.updated',
  'file.copied',
  'file.deleted',
  'file.shared',
  'file.unshared',
  'file.links_revoked',
  'file.version_added',
  'file.version_restored',
  'file.version_deleted',
  'file.trashed',
  'file.restored',
  'file.purged',
  'file.held',
  'file.released',
  'file.quarantined',
  'file.quarantine_released',
  'file.infected',
  'file.rejected',
  'upload.expired',
  'folder.moved',
  'folder.deleted',
  'folder.shared',
  'folder.unshared',
  'user.created',
  'user.updated',
  'user.deleted',
  'user.login',
  'user.login_failed',
  'user.logout',
  'user.password_changed',
  'user.identity_linked',
  'user.identity_unlinked',
  'user.converted',
  'user.email_changed',
  'user.session_ended',
  'user.passkey_added',
  'user.passkey_removed',
  'user.mfa_enabled',
  'user.mfa_disabled',
] as const;
export type EventType = (typeof eventTypes)[number];

/** Who caused an event. security: an address and a user agent, never a token or a secret. */
export type Actor = {
  kind: 'user' | 'app' | 'operator' | 'service-key' | 'system';
  /** The user's or operator's id, the app id, the service key's name; null for the system. */
  id: string | null;
  ip: string | null;
  userAgent: string | null;
};

/** Thin event data: ids, paths, ACL entries, sizes. Never a secret, a token or a link. */
export type EventData = Readonly<
  Record<string, string | number | boolean | null | Readonly<Record<string, unknown>>>
>;

/** An event as the domain makes it, before it is stored (the store numbers it). */
export type NewEvent = {
  /** Sortable and unique (event-id.ts); the webhook-id of every delivery of it. */
  id: string;
  type: EventType;
  occurredAt: Date;
  projectId: string;
  actor: Actor;
  /** The file it concerns, for file events (the stream's ACL check and per-file order). */
  fileId: string | null;
  data: EventData;
};

/** A stored event: its position in the project's log (commit order per file) and all of it. */
export type StoredEvent = NewEvent & { seq: number };

/** The actor of the system itself (sweepers, expiries). */
export const systemActor: Actor = Object.freeze({ kind: 'system', id: null, ip: null, userAgent: null });
