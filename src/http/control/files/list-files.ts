import { Type } from '@sinclair/typebox';
import { customDataPrefix, isSearch, toSearchRequest } from '../../../domain/files/search-request.ts';
import { validationFailed } from '../../../errors/errors.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { assertKnownParameters } from '../../wire/known-parameters.ts';
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
    name: Type.Optional(
      Type.String({
        description:
          'search: a case-insensitive substring of the file name (last path segment), ≥ 3 characters',
      }),
    ),
    contentType: Type.Optional(Type.String({ description: 'search: an exact content type, or `type/*`' })),
    createdAfter: Type.Optional(Type.String({ description: 'search: ISO 8601; files created after it' })),
    createdBefore: Type.Optional(Type.String({ description: 'search: ISO 8601; files created before it' })),
    minSize: Type.Optional(Type.String({ description: 'search: bytes, at least' })),
    maxSize: Type.Optional(Type.String({ description: 'search: bytes, at most' })),
    sort: Type.Optional(
      Type.Union([Type.Literal('createdAt'), Type.Literal('name'), Type.Literal('size')], {
        description: 'search: the order, default createdAt',
      }),
    ),
    order: Type.Optional(
      Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'search: default desc' }),
    ),
    scope: Type.Optional(
      Type.Union([Type.Literal('mine'), Type.Literal('shared'), Type.Literal('all')], {
        description:
          'search: own files, files shared with the caller (user, role or folder share), or both (default)',
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        maxLength: 2048,
        description: "search: a page's `nextCursor`; the next page starts after it",
      }),
    ),
  },
  {
    additionalProperties: false,
    // customData.<key>=<value>: equality on a top-level key; 3 and true are a number and a
    // boolean, "3" (quoted) and anything else a string. Several keys AND.
    patternProperties: { [`^${customDataPrefix.replace('.', '\\.')}.+$`]: Type.String({ maxLength: 1024 }) },
  },
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
            nextCursor: Type.Optional(
              Type.String({ description: 'search only: where the next page starts, when more may follow' }),
            ),
          }),
          ...errorResponses(400, 401, 403),
        },
      },
      // Before the schema's own check, whose message would not say which names there are.
      preValidation: async (request) =>
        assertKnownParameters(request.query as Record<string, unknown>, {
          name: 'GET /api/v1/file',
          known: knownParameters,
          allows: (name) => name.startsWith(customDataPrefix) && name.length > customDataPrefix.length,
          hint: 'and customData.<key> (filePath is the prefix filter)',
        }),
    },
    async (request) => {
      const pageSize = toPositive('pageSize', request.query.pageSize, 20, maxPageSize);
      const pageNumber = toPositive('pageNumber', request.query.pageNumber, 1, 1_000_000);
      const query = request.query as Record<string, string | undefined>;
      if (isSearch(query)) {
        const found = await services.fileReading.search(request.principal, {
          ...toSearchRequest(query),
          pageSize,
          pageNumber,
          filePathPrefix: request.query.filePath || undefined,
        });
        // A search counts what it found, not the reader's whole set: `total` is a lower bound
        // that tells, with `pages`, whether another page follows (as `nextCursor` does).
        const total = (pageNumber - 1) * pageSize + found.files.length + (found.nextCursor ? 1 : 0);
        return {
          docs: found.files.map(toFileView),
          total,
          limit: pageSize,
          page: pageNumber,
          pages: Math.ceil(total / pageSize),
          ...(found.nextCursor === undefined ? {} : { nextCursor: found.nextCursor }),
        };
      }
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

function toPositive(name: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  if (!/^\d{1,7}$/.test(text) || Number(text) < 1 || Number(text) > max) {
    throw validationFailed(`${name} must be a whole number from 1 to ${max}`);
  }
  return Number(text);
}
