import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { assertKnownParameters } from '../../wire/known-parameters.ts';

const text = (description: string) => Type.String({ maxLength: 64, description });

/** GET /api/v1/audit's filters; their rules and messages are the domain's (domain/events/audit-filters.ts). */
export const AuditQuerySchema = Type.Object(
  {
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
    pageSize: Type.Optional(text('1…100 events a page, default 100')),
  },
  // Any other name is refused (400), as the file listing refuses it: see knownAuditParameters.
  { additionalProperties: false },
);
const knownAuditParameters = Object.keys(AuditQuerySchema.properties);

/** preValidation of both audit routes (API and console): an unknown parameter is a 400 naming the known. */
export async function refuseUnknownAuditParameters(request: FastifyRequest): Promise<void> {
  assertKnownParameters(request.query as Record<string, unknown>, {
    name: 'the audit log',
    known: knownAuditParameters,
  });
}

const email = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

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
      email: email(
        "the user's or operator's email now; for a deleted user the email the event recorded, else null",
      ),
      name: Type.Union([Type.String(), Type.Null()], {
        description: "who, as a person reads it: the email, the service key's name or the app id",
      }),
    }),
    fileId: Type.Union([Type.String(), Type.Null()]),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description: 'what the event adds: ids, paths, ACL entries',
    }),
    subject: Type.Union(
      [
        Type.Object({
          userId: Type.String(),
          email: email('their email now; for a deleted user the email the event recorded, else null'),
        }),
        Type.Null(),
      ],
      { description: 'the user the event is about (data.userId); null for other events' },
    ),
  },
  { $id: 'AuditEvent', title: 'AuditEvent' },
);

export const AuditPageSchema = Type.Object({
  events: Type.Array(AuditEventSchema),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
