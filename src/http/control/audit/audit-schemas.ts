import { Type } from '@sinclair/typebox';

const text = (description: string) => Type.String({ maxLength: 64, description });

/** GET /api/v1/audit's filters; their rules and messages are the domain's (domain/events/audit-filters.ts). */
export const AuditQuerySchema = Type.Object({
  type: Type.Optional(
    Type.Union(
      [Type.String({ maxLength: 1024 }), Type.Array(Type.String({ maxLength: 64 }), { maxItems: 32 })],
      { description: 'event types or groups (file.*), repeated or comma-separated' },
    ),
  ),
  actor: Type.Optional(text("the actor's id: a user id, an operator id or an app id")),
  fileId: Type.Optional(text('events of this file only')),
  from: Type.Optional(text('ISO 8601: events at or after this instant')),
  to: Type.Optional(text('ISO 8601: events before this instant')),
  cursor: Type.Optional(text('nextCursor of the page before')),
});

export const AuditEventSchema = Type.Object(
  {
    id: Type.String({ description: 'evt_…: also the webhook-id of its deliveries' }),
    type: Type.String(),
    timestamp: Type.String({ format: 'date-time' }),
    project: Type.String(),
    actor: Type.Object({
      kind: Type.Union([
        Type.Literal('user'),
        Type.Literal('app'),
        Type.Literal('operator'),
        Type.Literal('service-key'),
        Type.Literal('system'),
      ]),
      id: Type.Union([Type.String(), Type.Null()]),
      ip: Type.Union([Type.String(), Type.Null()]),
      userAgent: Type.Union([Type.String(), Type.Null()]),
    }),
    fileId: Type.Union([Type.String(), Type.Null()]),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description: 'what the event adds: ids, paths, ACL entries',
    }),
  },
  { $id: 'AuditEvent', title: 'AuditEvent' },
);

export const AuditPageSchema = Type.Object({
  events: Type.Array(AuditEventSchema),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
