import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Principal } from '../../src/domain/access/decide-file-access.ts';
import type { AclEntry } from '../../src/domain/files/file-record.ts';
import { isAppError } from '../../src/errors/app-error.ts';
import { propertyParameters, toTimeoutMs } from '../support/fuzz-settings.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

// Model-based test of the access rules: random sequences of share, unshare, set-role, delete
// and uploads with either permissionScope are played against a running server and a tiny
// in-test model of who may read. After every step the server agrees with the model for every
// user, single reads and listing alike. The sequences run over HTTP, and many more of them
// through the file services on the same stores (the HTTP layer adds nothing to the rules).

const userCount = 4;
const roles = ['user', 'editors', 'admin'] as const; // `admin` is the project's admin role
type Role = (typeof roles)[number];
type Target = { scope: 'user'; user: number } | { scope: 'role'; role: Role };

type ModelFile = {
  creator: number;
  scope: 'user' | '*';
  users: Set<number>;
  roles: Set<Role>;
  deleted: boolean;
};
type Model = { roles: Role[]; files: ModelFile[] };

/** An answer, as status and code: HTTP's own, or the AppError a file service threw. */
type Answer = { status: number; code?: string };
type User = { id: string; token: string };

/** How a step reaches the server: over HTTP, or through the file services. */
type Driver = {
  read(user: User, fileId: string): Promise<Answer>;
  list(user: User, prefix: string): Promise<string[]>;
  changeAcl(action: 'share' | 'unshare', user: User, fileId: string, entry: AclEntry): Promise<Answer>;
  remove(user: User, fileId: string): Promise<Answer>;
};

type Real = { server: TestServer; driver: Driver; users: User[]; prefix: string; fileIds: string[] };

const isManager = (model: Model, user: number, file: ModelFile) =>
  file.creator === user || model.roles[user] === 'admin';
/** Listed: creator, user entry, role entry, or admin. Scope `*` lets holders of the id read, not list. */
const isListed = (model: Model, user: number, file: ModelFile) =>
  !file.deleted &&
  (isManager(model, user, file) || file.users.has(user) || file.roles.has(model.roles[user]!));
const isReadable = (model: Model, user: number, file: ModelFile) =>
  isListed(model, user, file) || (!file.deleted && file.scope === '*');

function httpDriver(server: TestServer): Driver {
  const api = server.client;
  const toAnswer = (response: { status: number; body?: { code?: string } }): Answer =>
    response.status < 300
      ? { status: response.status }
      : { status: response.status, code: response.body?.code };
  return {
    read: async (user, fileId) =>
      toAnswer(await api.call('GET', `/api/v1/file/${fileId}`, { token: user.token })),
    list: async (user, prefix) => {
      const listed = await api.call('GET', `/api/v1/file?pageSize=100&filePath=${prefix}`, {
        token: user.token,
      });
      assert.equal(listed.status, 200, listed.text);
      assert.equal(listed.body.total, listed.body.docs.length);
      return listed.body.docs.map((doc: { _id: string }) => doc._id);
    },
    changeAcl: async (action, user, fileId, entry) =>
      toAnswer(
        await api.call(
          action === 'share' ? 'POST' : 'DELETE',
          `/api/v1/file/${fileId}/acl/${entry.scope}/${entry.identifier}`,
          {
            token: user.token,
          },
        ),
      ),
    remove: async (user, fileId) =>
      toAnswer(await api.call('DELETE', `/api/v1/file/${fileId}`, { token: user.token })),
  };
}

function serviceDriver(server: TestServer): Driver {
  const { fileReading, fileSharing, fileOrganizer, identity, repositories } = server.services;
  // The principal is established on every call, as the token barrier does: roles change at once.
  const project = repositories.projects.findById(server.credentials.projectId);
  const principalOf = async (user: User): Promise<Principal> =>
    (await identity.authenticate((await project)!, user.token)).principal;
  const answer = async (work: () => Promise<unknown>, status: number): Promise<Answer> => {
    try {
      await work();
      return { status };
    } catch (error) {
      if (!isAppError(error)) throw error;
      return { status: error.statusCode, code: error.code };
    }
  };
  return {
    read: async (user, fileId) => {
      const principal = await principalOf(user);
      return answer(() => fileReading.getWithDownloadLink(principal, fileId, 60), 200);
    },
    list: async (user, prefix) => {
      const listed = await fileReading.list(await principalOf(user), {
        pageSize: 100,
        pageNumber: 1,
        filePathPrefix: prefix,
      });
      assert.equal(listed.total, listed.files.length);
      return listed.files.map((file) => file.id);
    },
    changeAcl: async (action, user, fileId, entry) => {
      const principal = await principalOf(user);
      return action === 'share'
        ? answer(() => fileSharing.share(principal, fileId, entry), 200)
        : answer(() => fileSharing.unshare(principal, fileId, entry), 204);
    },
    remove: async (user, fileId) => {
      const principal = await principalOf(user);
      return answer(() => fileOrganizer.delete(principal, fileId), 204);
    },
  };
}

/** After every step: each user's single reads and listing match the model, and each other. */
async function assertAgrees(model: Model, real: Real): Promise<void> {
  await Promise.all(
    real.users.map(async (user, u) => {
      const reads = await Promise.all(real.fileIds.map((fileId) => real.driver.read(user, fileId)));
      reads.forEach((read, f) => {
        const file = model.files[f]!;
        const expected: Answer = file.deleted
          ? { status: 404, code: 'FILE_NOT_FOUND' }
          : isReadable(model, u, file)
            ? { status: 200 }
            : { status: 403, code: 'ACCESS_DENIED' };
        assert.deepEqual(read, expected, `u${u} reads f${f}`);
      });
      const listed = new Set(await real.driver.list(user, real.prefix));
      real.fileIds.forEach((fileId, f) => {
        assert.equal(listed.has(fileId), isListed(model, u, model.files[f]!), `u${u} lists f${f}`);
        // Listing agrees with single reads: whatever is listed can be read.
        if (listed.has(fileId)) assert.equal(reads[f]!.status, 200, `u${u} lists f${f} but cannot read it`);
      });
      assert.equal(listed.size, model.files.filter((file) => isListed(model, u, file)).length);
    }),
  );
}

type Command = fc.AsyncCommand<Model, Real>;

function upload(actor: number, scope: 'user' | '*'): Command {
  return {
    check: (model) => model.files.length < 4,
    async run(model, real) {
      const record = await real.server.client.uploadFile(
        real.users[actor]!.token,
        `${real.prefix}f${model.files.length}.txt`,
        'model',
        { permissionScope: scope },
      );
      real.fileIds.push(record._id);
      model.files.push({ creator: actor, scope, users: new Set(), roles: new Set(), deleted: false });
      await assertAgrees(model, real);
    },
    toString: () => `u${actor} uploads (scope ${scope})`,
  };
}

function changeAcl(action: 'share' | 'unshare', actor: number, fileIndex: number, target: Target): Command {
  const name = `u${actor} ${action}s f${fileIndex} with ${target.scope === 'user' ? `u${target.user}` : `role ${target.role}`}`;
  return {
    check: (model) => fileIndex < model.files.length,
    async run(model, real) {
      const file = model.files[fileIndex]!;
      const entry: AclEntry =
        target.scope === 'user'
          ? { scope: 'user', identifier: real.users[target.user]!.id }
          : { scope: 'role', identifier: target.role };
      const answer = await real.driver.changeAcl(action, real.users[actor]!, real.fileIds[fileIndex]!, entry);
      const removesCreator = target.scope === 'user' && target.user === file.creator;
      const expected: Answer = file.deleted
        ? { status: 404, code: 'FILE_NOT_FOUND' }
        : !isManager(model, actor, file)
          ? { status: 403, code: 'ACCESS_DENIED' }
          : action === 'unshare' && removesCreator
            ? { status: 400, code: 'VALIDATION_FAILED' }
            : { status: action === 'share' ? 200 : 204 };
      assert.deepEqual(answer, expected, name);
      if (answer.status < 300) {
        const change = action === 'share' ? 'add' : 'delete';
        if (target.scope === 'user') file.users[change](target.user);
        else file.roles[change](target.role);
      }
      await assertAgrees(model, real);
    },
    toString: () => name,
  };
}

function setRole(user: number, role: Role): Command {
  return {
    check: () => true,
    async run(model, real) {
      const { projectId } = real.server.credentials;
      await real.server.services.repositories.users.setRole(projectId, real.users[user]!.id, role);
      model.roles[user] = role;
      await assertAgrees(model, real);
    },
    toString: () => `set-role u${user} ${role}`,
  };
}

function deleteFile(actor: number, fileIndex: number): Command {
  return {
    check: (model) => fileIndex < model.files.length,
    async run(model, real) {
      const file = model.files[fileIndex]!;
      const answer = await real.driver.remove(real.users[actor]!, real.fileIds[fileIndex]!);
      const expected: Answer = file.deleted
        ? { status: 404, code: 'FILE_NOT_FOUND' }
        : isManager(model, actor, file)
          ? { status: 204 }
          : { status: 403, code: 'ACCESS_DENIED' };
      assert.deepEqual(answer, expected, `u${actor} deletes f${fileIndex}`);
      if (answer.status === 204) file.deleted = true;
      await assertAgrees(model, real);
    },
    toString: () => `u${actor} deletes f${fileIndex}`,
  };
}

const user = fc.nat({ max: userCount - 1 });
const fileIndex = fc.nat({ max: 3 });
const target: fc.Arbitrary<Target> = fc.oneof(
  user.map((u) => ({ scope: 'user', user: u }) as const),
  fc.constantFrom(...roles).map((role) => ({ scope: 'role', role }) as const),
);
const commands = fc.commands(
  [
    fc.tuple(user, fc.constantFrom<'user' | '*'>('user', '*')).map(([a, s]) => upload(a, s)),
    fc
      .tuple(fc.constantFrom<'share' | 'unshare'>('share', 'share', 'unshare'), user, fileIndex, target)
      .map(([action, a, f, t]) => changeAcl(action, a, f, t)),
    fc.tuple(user, fc.constantFrom(...roles)).map(([u, r]) => setRole(u, r)),
    fc.tuple(user, fileIndex).map(([a, f]) => deleteFile(a, f)),
  ],
  { maxCommands: 30, size: 'medium' },
);

describe('access rules against a model (property)', () => {
  let server: TestServer;
  let users: User[];
  before(async () => {
    server = await startTestServer();
    users = [];
    for (let i = 0; i < userCount; i++) {
      const { token, userId } = await server.client.signup(`model${i}@example.com`);
      users.push({ id: userId, token });
    }
  });
  after(() => server.stop());

  let run = 0;
  const playSequences = (driver: () => Driver) =>
    fc.asyncProperty(commands, async (sequence) => {
      const prefix = `run${run++}/`;
      const { projectId } = server.credentials;
      await Promise.all(
        users.map((u) => server.services.repositories.users.setRole(projectId, u.id, 'user')),
      );
      const setup = () => ({
        model: { roles: users.map((): Role => 'user'), files: [] },
        real: { server, driver: driver(), users, prefix, fileIds: [] },
      });
      await fc.asyncModelRun(setup, sequence);
    });

  it('sequences over HTTP agree with the model', { timeout: toTimeoutMs(600_000) }, async () => {
    await fc.assert(
      playSequences(() => httpDriver(server)),
      propertyParameters('access model over HTTP', 12),
    );
  });

  it('sequences through the file services agree with the model', {
    timeout: toTimeoutMs(600_000),
  }, async () => {
    await fc.assert(
      playSequences(() => serviceDriver(server)),
      propertyParameters('access model through FileService', 60),
    );
  });
});
