import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { accessMatrix, type Caller, type Scope, sharedRole } from './access-matrix.ts';

/** Plays every row of the access matrix against a running server, over HTTP. */
describe('access matrix over HTTP', () => {
  let server: TestServer;
  let otherProject: ApiClient;
  const tokens = {} as Record<Caller, string>;
  const files = {} as Record<Scope, string>;

  before(async () => {
    server = await startTestServer();
    const api = server.client;
    otherProject = await server.createProject('elsewhere');
    const [creator, userEntry, roleEntry, admin, stranger] = await Promise.all(
      ['creator', 'userentry', 'roleentry', 'admin', 'stranger'].map((name) =>
        api.signup(`${name}@example.com`),
      ),
    );
    const projectId = server.credentials.projectId;
    await server.services.repositories.users.setRole(projectId, roleEntry!.userId, sharedRole);
    await server.services.repositories.users.setRole(projectId, admin!.userId, 'admin');
    // The other project's user is named in the ACL by id: still nothing crosses projects.
    const other = await otherProject.signup('other@example.com');
    Object.assign(tokens, {
      creator: creator!.token,
      userEntry: userEntry!.token,
      roleEntry: roleEntry!.token,
      admin: admin!.token,
      stranger: stranger!.token,
      otherProject: other.token,
    });
    for (const scope of ['user', '*'] as const) {
      const record = await api.uploadFile(
        creator!.token,
        `matrix/${scope === '*' ? 'star' : 'user'}.txt`,
        'matrix',
        { permissionScope: scope },
      );
      files[scope] = record._id;
      for (const path of [
        `acl/user/${userEntry!.userId}`,
        `acl/user/${other.userId}`,
        `acl/role/${sharedRole}`,
      ]) {
        const shared = await api.call('POST', `/api/v1/file/${record._id}/${path}`, {
          token: creator!.token,
        });
        assert.equal(shared.status, 200);
      }
    }
  });
  after(() => server.stop());

  // Listing agrees with single reads, but for scope `*`: that scope lets whoever holds the id
  // read, it does not hand the id out, so only ACL readers see such a file in their list.
  it('listing agrees with single reads (scope user); scope * lists for ACL readers only', async () => {
    for (const row of accessMatrix.filter((r) => r.action === 'read')) {
      const client = row.caller === 'otherProject' ? otherProject : server.client;
      const listed = await client.call('GET', '/api/v1/file?pageSize=100', { token: tokens[row.caller] });
      assert.equal(listed.status, 200, listed.text);
      const seen = listed.body.docs.some((doc: { _id: string }) => doc._id === files[row.scope]);
      const expected =
        row.scope === 'user'
          ? row.expect === 'allow'
          : ['creator', 'userEntry', 'roleEntry', 'admin'].includes(row.caller);
      assert.equal(seen, expected, `${row.caller} lists the ${row.scope} file`);
    }
  });

  for (const row of accessMatrix) {
    it(`${row.caller} ${row.action} (scope ${row.scope}) → ${row.expect}`, async () => {
      const client = row.caller === 'otherProject' ? otherProject : server.client;
      const fileId = files[row.scope];
      const token = tokens[row.caller];
      const [read, manage] = await Promise.all([
        client.call('GET', `/api/v1/file/${fileId}`, { token }),
        // Sharing an existing role again is a no-op, so the matrix never changes as it runs.
        client.call('POST', `/api/v1/file/${fileId}/acl/role/${sharedRole}`, { token }),
      ]);
      const response = row.action === 'read' ? read : manage;
      if (row.expect === 'allow') {
        assert.equal(response.status, 200, response.text);
        assert.equal(response.body._id, fileId);
        if (row.action === 'read') assert.equal((await fetch(response.body.url)).status, 200);
      } else {
        // Another project's user holds a token its own project's credentials accept; the file
        // is refused like any other it may not read.
        assert.equal(response.status, 403, response.text);
        assert.equal(response.body.code, row.expect);
      }
    });
  }
});
