import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { errorCodes } from '../../src/errors/error-codes.ts';
import { invalidSignature, linkExpired, linkRevoked } from '../../src/errors/errors.ts';
import { toErrorBody } from '../../src/http/plugins/error-handler.ts';
import { toApiResponse } from '../support/api-client.ts';
import {
  accessMatrix,
  type CallerId,
  callers,
  type Endpoint,
  type EndpointId,
  endpoints,
  expectedOutcome,
  folderShareCallers,
  isScoped,
  type Scope,
} from './access-matrix.ts';
import { toCellRequest } from './matrix-requests.ts';
import { buildMatrixWorld, type MatrixWorld } from './matrix-world.ts';

/** A HEAD answer has no body; its Content-Length still tells which error body it would carry. */
const headErrorBodies = {
  INVALID_SIGNATURE: invalidSignature(),
  LINK_EXPIRED: linkExpired(),
  LINK_REVOKED: linkRevoked(),
};

/**
 * Plays every cell of the authorization matrix (test/access/access-matrix.ts) against one
 * running server: each cell is one request, asserting the status and the error code.
 */
describe('authorization matrix over HTTP: every endpoint × every caller', { concurrency: 4 }, () => {
  let world: MatrixWorld;
  before(async () => {
    world = await buildMatrixWorld();
  });
  after(() => world?.server.stop());

  const cells = (Object.keys(callers) as CallerId[]).flatMap((caller) =>
    (Object.keys(endpoints) as EndpointId[]).flatMap((endpoint) =>
      (isScoped(endpoint) ? (['user', '*'] as const) : (['user'] as const)).map((scope) => ({
        caller,
        endpoint,
        scope,
        scoped: isScoped(endpoint),
      })),
    ),
  );

  // Cells of exclusive endpoints wait for each other (access-matrix.ts, Endpoint.exclusive).
  let exclusiveTurn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const result = exclusiveTurn.then(work);
    exclusiveTurn = result.catch(() => {});
    return result;
  };

  for (const { caller, endpoint, scope, scoped } of cells) {
    const expected = expectedOutcome(caller, endpoint, scope);
    const { method, path, okStatus } = endpoints[endpoint];
    const name = `${caller} → ${method} ${path}${scoped ? ` (scope ${scope})` : ''}: ${expected}`;
    it(name, async () => {
      const play = async () => {
        const request = await toCellRequest(world, caller, endpoint, scope);
        return fetch(request.url, request).then(toApiResponse);
      };
      const exclusive = (endpoints[endpoint] as Endpoint).exclusive === true;
      const response = await (exclusive ? inTurn(play) : play());
      if (expected === 'ok') {
        assert.equal(response.status, okStatus, response.text);
        assert.equal(response.body?.code, undefined, response.text);
        if (endpoint === 'readAudit') {
          // A project's log is its own: whoever reads it sees no other project's events.
          const project = (caller === 'otherProjectUser' ? world.other : world.api).credentials.projectId;
          assert.ok(response.body.events.every((event: { project: string }) => event.project === project));
        }
        return;
      }
      const status = errorCodes[expected];
      assert.equal(response.status, status, response.text);
      if (method === 'HEAD') {
        const body = headErrorBodies[expected as keyof typeof headErrorBodies];
        assert.ok(body, `no HEAD body known for ${expected}`);
        assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
        assert.equal(
          response.headers.get('content-length'),
          String(JSON.stringify(toErrorBody(body)).length),
        );
        return;
      }
      assert.deepEqual(Object.keys(response.body ?? {}).sort(), ['code', 'error', 'message', 'statusCode']);
      assert.equal(response.body.code, expected);
      assert.equal(response.body.statusCode, status);
    });
  }

  // Listing agrees with single reads, but for scope `*`: that scope lets whoever holds the id
  // read, it does not hand the id out, so only ACL readers see such a file in their list. Nor
  // does the listing walk shared folders (decisions.md, folder shares): a folder share's
  // grantee finds the file by browsing the folder, which agrees with single reads instead.
  it('listing agrees with single reads (scope user); scope * lists for ACL readers only', async () => {
    for (const row of accessMatrix.filter((r) => r.action === 'read')) {
      const client = row.caller === 'otherProjectUser' ? world.other : world.api;
      const listed = await client.call('GET', '/api/v1/file?pageSize=100&filePath=matrix/', {
        token: world.accounts[row.caller].token,
      });
      assert.equal(listed.status, 200, listed.text);
      const file = world.files[row.scope as Scope].id;
      const seen = listed.body.docs.some((doc: { _id: string }) => doc._id === file);
      const byFolder = (folderShareCallers as readonly string[]).includes(row.caller);
      const expected =
        row.scope === 'user' && !byFolder
          ? row.expect === 'allow'
          : ['creator', 'userEntry', 'roleEntry', 'admin'].includes(row.caller);
      assert.equal(seen, expected, `${row.caller} lists the ${row.scope} file`);
    }
  });

  it("browsing the files' folder agrees with single reads for a folder share's grantees", async () => {
    const owner = world.accounts.creator.userId;
    for (const caller of folderShareCallers) {
      const browsed = await world.api.call('GET', `/api/v1/folders?owner=${owner}&path=matrix/`, {
        token: world.accounts[caller].token,
      });
      assert.equal(browsed.status, 200, browsed.text);
      const seen = browsed.body.files.map((doc: { _id: string }) => doc._id).sort();
      assert.deepEqual(seen, [world.files.user.id, world.files['*'].id].sort(), caller);
    }
  });
});
