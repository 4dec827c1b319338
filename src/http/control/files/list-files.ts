import { Type } from '@sinclair/typebox';
import { validationFailed } from '../../../errors/errors.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileRecordSchema } from '../../wire/schemas.ts';
import { toFileView } from '../../wire/to-wire.ts';

const maxPageSize = 100;

/**
 * The listing's query parameters. Any other name is refused rather than ignored: a filter the
 * API does not know (`?prefix=`) would otherwise list everything, silently. The original SDKs
 * send none of these (their getAll is a bare GET), so refusing the rest costs them nothing.
 */
const ListFilesQuery = Type.Object(
  {
    pageSize: Type.Optional(Type.String({ description: `1…${maxPageSize}, default 20` })),
    pageNumber: Type.Optional(Type.String({ description: 'from 1, default 1' })),
    filePath: Type.Optional(Type.String({ maxLength: 1024, description: 'filePath prefix' })),
  },
  { additionalProperties: false },
);
const knownParameters = Object.keys(ListFilesQuery.properties);

/**
 * GET /api/v1/file?pageSize&pageNumber&filePath: the files the caller may list (creator, user
 * or role entry; all of the project for admins), newest first, in the page shape of Selfbits'
 * later API (DESIGN §3). Files readable only through permissionScope `*` are not listed: that
 * scope lets whoever holds the id read, it does not hand out ids.
 */
export const listFiles: RouteRegistrar = (app, services) => {
  app.get(
    '/file',
    {
      schema: {
        summary: 'List files',
        description:
          'The files the caller may list, newest first. `total` is exact up to ten pages past the ' +
          'requested one; beyond that it is a lower bound (the files up to that horizon, plus one), ' +
          'so `pages` always tells whether another page follows, and grows as the caller pages on.',
        tags: ['files'],
        querystring: ListFilesQuery,
        response: {
          200: Type.Object({
            docs: Type.Array(FileRecordSchema),
            total: Type.Integer(),
            limit: Type.Integer(),
            page: Type.Integer(),
            pages: Type.Integer(),
          }),
          ...errorResponses(400, 401, 403),
        },
      },
      // Before the schema's own check, whose message would not say which names there are.
      preValidation: async (request) => assertKnownParameters(request.query as Record<string, unknown>),
    },
    async (request) => {
      const pageSize = toPositive('pageSize', request.query.pageSize, 20, maxPageSize);
      const pageNumber = toPositive('pageNumber', request.query.pageNumber, 1, 1_000_000);
      const { files, total } = await services.fileReading.list(request.principal, {
        pageSize,
        pageNumber,
        filePathPrefix: request.query.filePath || undefined,
      });
      return {
        docs: files.map(toFileView),
        total,
        limit: pageSize,
        page: pageNumber,
        pages: Math.ceil(total / pageSize),
      };
    },
  );
};

function assertKnownParameters(query: Record<string, unknown>): void {
  const unknown = Object.keys(query).filter((name) => !knownParameters.includes(name));
  if (unknown.length === 0) return;
  // The names echo the request: a few, each cut short, keep the answer small.
  const names = unknown
    .slice(0, 3)
    .map((name) => JSON.stringify(name.slice(0, 64)))
    .join(', ');
  throw validationFailed(
    `Unknown query parameter ${names}: GET /api/v1/file takes ${knownParameters.join(', ')} (filePath is the prefix filter)`,
  );
}

function toPositive(name: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  if (!/^\d{1,7}$/.test(text) || Number(text) < 1 || Number(text) > max) {
    throw validationFailed(`${name} must be a whole number from 1 to ${max}`);
  }
  return Number(text);
}
