import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LinkSigner } from '../../src/domain/links/link-signer.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { currentStackName } from '../support/test-stack.ts';

/**
 * Issue 10, item 5: removing a share stops the links it let its users obtain, and
 * POST /api/v1/file/:id/links/revoke stops every download link of the file. On S3 too: download
 * links go through the gateway unless the project chose presigned ones (issue 23, item 10;
 * test/stacks/s3-download-modes.test.ts).
 */
describe(`revoking download links (${currentStackName()} stack)`, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  const linkOf = async (token: string, fileId: string) => {
    const got = await server.client.call('GET', `/api/v1/file/${fileId}`, { token });
    assert.equal(got.status, 200, got.text);
    return got.body.url as string;
  };
  /** The code a download answers with, or 200. */
  const download = async (url: string) => {
    const response = await fetch(url);
    const text = await response.text();
    return response.status === 200 ? 200 : (JSON.parse(text) as { code: string }).code;
  };
  const revoke = (token: string, fileId: string) =>
    server.client.call('POST', `/api/v1/file/${fileId}/links/revoke`, { token });

  it('revoke stops every earlier link at once (LINK_REVOKED); links issued after work', async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    const file = await server.client.uploadFile(owner.token, 'revoke/a.txt', 'secret');
    const other = await server.client.uploadFile(owner.token, 'revoke/b.txt', 'other');
    await server.client.call('POST', `/api/v1/file/${file._id}/acl/user/${reader.userId}`, {
      token: owner.token,
    });
    const ownerLink = await linkOf(owner.token, file._id);
    const readerLink = await linkOf(reader.token, file._id);
    const otherLink = await linkOf(owner.token, other._id);
    assert.equal(await download(readerLink), 200);
    const before = await server.client.call('GET', `/api/v1/file/${file._id}`, { token: owner.token });
    const answer = await revoke(owner.token, file._id);
    assert.equal(answer.status, 204, answer.text);
    assert.equal(answer.text, '');
    assert.equal(await download(ownerLink), 'LINK_REVOKED');
    assert.equal(await download(readerLink), 'LINK_REVOKED');
    assert.equal(await download(otherLink), 200, "another file's links are untouched");
    const fresh = await linkOf(reader.token, file._id);
    assert.equal(await download(fresh), 200);
    assert.equal((await fetch(fresh, { method: 'HEAD' })).status, 200);
    // A revocation is not a change of the record the API shows.
    const record = await server.client.call('GET', `/api/v1/file/${file._id}`, { token: owner.token });
    assert.equal(record.body.__v, before.body.__v);
    assert.equal((await revoke(owner.token, file._id)).status, 204, 'again');
    assert.equal(await download(fresh), 'LINK_REVOKED');
  });

  it('only the creator and admins may revoke; an unknown file is FILE_NOT_FOUND', async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    const stranger = await server.client.signup();
    const file = await server.client.uploadFile(owner.token, 'revoke/guarded.txt', 'x');
    await server.client.call('POST', `/api/v1/file/${file._id}/acl/user/${reader.userId}`, {
      token: owner.token,
    });
    const link = await linkOf(owner.token, file._id);
    assert.equal((await revoke(reader.token, file._id)).body.code, 'ACCESS_DENIED');
    assert.equal((await revoke(stranger.token, file._id)).body.code, 'ACCESS_DENIED');
    assert.equal((await revoke(owner.token, 'AAAAAAAAAAAAAAAAAAAAAA')).body.code, 'FILE_NOT_FOUND');
    assert.equal((await revoke(owner.token, 'not-an-id')).body.code, 'FILE_NOT_FOUND');
    assert.equal(await download(link), 200, 'refused revocations changed nothing');
  });

  it("unsharing a user stops that user's links (and the file's others); a no-op unshare stops nothing", async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    const file = await server.client.uploadFile(owner.token, 'revoke/shared.txt', 'shared');
    const share = `/api/v1/file/${file._id}/acl/user/${reader.userId}`;
    await server.client.call('POST', share, { token: owner.token });
    const readerLink = await linkOf(reader.token, file._id);
    const noop = await server.client.call(
      'DELETE',
      `/api/v1/file/${file._id}/acl/user/AAAAAAAAAAAAAAAAAAAAAA`,
      {
        token: owner.token,
      },
    );
    assert.equal(noop.status, 204);
    assert.equal(await download(readerLink), 200, 'removing an absent entry revokes nothing');
    assert.equal((await server.client.call('DELETE', share, { token: owner.token })).status, 204);
    assert.equal(await download(readerLink), 'LINK_REVOKED');
    const denied = await server.client.call('GET', `/api/v1/file/${file._id}`, { token: reader.token });
    assert.equal(denied.body.code, 'ACCESS_DENIED', 'and no new link');
    assert.equal(await download(await linkOf(owner.token, file._id)), 200, 'the owner asks again');
  });

  it('unsharing a role stops the links its holders obtained', async () => {
    const owner = await server.client.signup();
    const file = await server.client.uploadFile(owner.token, 'revoke/role.txt', 'by role');
    // Everybody who signs up holds the role `user`.
    const member = await server.client.signup();
    await server.client.call('POST', `/api/v1/file/${file._id}/acl/role/user`, { token: owner.token });
    const memberLink = await linkOf(member.token, file._id);
    assert.equal(await download(memberLink), 200);
    const removed = await server.client.call('DELETE', `/api/v1/file/${file._id}/acl/role/user`, {
      token: owner.token,
    });
    assert.equal(removed.status, 204);
    assert.equal(await download(memberLink), 'LINK_REVOKED');
  });

  it('a link issued before generations (no gen) counts as generation 0: it works until the first revocation', async () => {
    const owner = await server.client.signup();
    const file = await server.client.uploadFile(owner.token, 'revoke/old.txt', 'old link');
    const [key] = await server.services.repositories.signingKeys.list('link');
    assert.ok(key);
    const expiresAt = Math.floor(Date.now() / 1000) + 600;
    // Signed as Coffer did before: the v1 string, no generation in it or in the URL.
    const { keyId, signature } = new LinkSigner([key]).sign({
      operation: 'download',
      fileId: file._id,
      expiresAt,
    });
    const oldLink = `${server.baseUrl}/blob/v1/files/${file._id}?exp=${expiresAt}&kid=${keyId}&sig=${signature}`;
    assert.equal(await download(oldLink), 200);
    assert.equal((await revoke(owner.token, file._id)).status, 204);
    assert.equal(await download(oldLink), 'LINK_REVOKED');
    // Adding a generation to it is a forgery, not a newer link.
    assert.equal(await download(oldLink.replace('&kid=', '&gen=1&kid=')), 'INVALID_SIGNATURE');
  });
});
