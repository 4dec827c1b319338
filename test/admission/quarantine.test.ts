import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ProgressReporter } from '../../src/cli/progress.ts';
import { scanProject } from '../../src/cli/scan-command.ts';
import type { ApiClient } from '../support/api-client.ts';
import { type Clamd, clamdMissing, clamdScanner, eicarBytes, startClamd } from '../support/clamd.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { currentStackName } from '../support/test-stack.ts';

type Account = Awaited<ReturnType<ApiClient['signup']>>;
type Answer = { status: number; body: { code?: string; [field: string]: unknown }; text: string };

const quiet: ProgressReporter = { phase() {}, advance() {}, finish() {} };

/**
 * Issue 42, item 2: `coffer scan` re-checks stored versions with a real clamd (a private one, its
 * signature database written by the test); a hit quarantines the file: every read of its bytes
 * answers 451 FILE_QUARANTINED until a project admin releases it. Files are uploaded with
 * scanning off (no COFFER_SCAN_URL), as before a signature update.
 */
describe(`quarantine by re-scan (${currentStackName()} stack)`, { skip: clamdMissing ?? false }, () => {
  let server: TestServer;
  let clamd: Clamd;
  let serviceKey: string;
  let admin: Account;
  let owner: Account;
  before(async () => {
    clamd = await startClamd();
    server = await startTestServer();
    serviceKey = await server.createServiceKey();
    admin = await server.client.signup();
    await server.services.repositories.users.setRole(server.credentials.projectId, admin.userId, 'admin');
    owner = await server.client.signup();
  });
  after(async () => {
    await server?.stop();
    await clamd?.close();
  });

  const scan = (since?: string, daemon = clamd, pageSize?: number) =>
    scanProject(server.services.config, {
      project: server.credentials.projectId,
      ...(since !== undefined && { since: new Date(since) }),
      scanner: clamdScanner(daemon),
      progress: quiet,
      ...(pageSize !== undefined && { pageSize }),
    });
  const call = (method: string, url: string, as: { token?: string; serviceKey?: string }, body?: unknown) =>
    server.client.call(method, url, { ...as, ...(body !== undefined && { body }) });
  const assertQuarantined = (answer: Answer) => {
    assert.equal(answer.status, 451, answer.text);
    assert.equal(answer.body.code, 'FILE_QUARANTINED');
  };
  const eventsOf = async (fileId: string, type: string) => {
    const answer = await call('GET', `/api/v1/audit?type=${type}&pageSize=100`, { serviceKey });
    assert.equal(answer.status, 200, answer.text);
    return (answer.body.events as { data: Record<string, unknown> }[]).filter(
      (event) => event.data.fileId === fileId,
    );
  };
  const fetchAnswer = async (url: string): Promise<Answer> => {
    const response = await fetch(url);
    const text = await response.text();
    let body = {};
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: response.status, body, text };
  };

  it('a hit quarantines the file: 451 on its record, links, renditions, archives, copies and shares; a clean file stays readable', async () => {
    const infected = await server.client.uploadFile(owner.token, 'inbox/eicar.com', eicarBytes());
    const clean = await server.client.uploadFile(owner.token, 'inbox/clean.txt', 'nothing to see');
    const linkBefore = (await call('GET', `/api/v1/file/${infected._id}`, { token: owner.token })).body
      .url as string;
    assert.equal((await fetch(linkBefore)).status, 200);
    const archiveBefore = await call(
      'POST',
      '/api/v1/archives',
      { token: owner.token },
      {
        fileIds: [infected._id, clean._id],
      },
    );
    assert.equal(archiveBefore.status, 201, archiveBefore.text);

    const report = await scan();
    assert.equal(report.resumeSince, undefined, report.error);
    assert.ok(report.scanned >= 2);
    assert.deepEqual(
      report.infected.map((hit) => [hit.fileId, hit.versionId, hit.quarantined]),
      [[infected._id, infected._id, true]],
    );
    assert.match(report.infected[0]!.signature, /^Coffer\.Test\.EICAR/);

    // The record with a link: refused to its owner and to admins alike.
    assertQuarantined(await call('GET', `/api/v1/file/${infected._id}`, { token: owner.token }));
    assertQuarantined(await call('GET', `/api/v1/file/${infected._id}`, { token: admin.token }));
    assertQuarantined(await call('GET', `/api/v1/file/${infected._id}`, { serviceKey }));
    // A link issued before stops at once, and says why.
    assertQuarantined(await fetchAnswer(linkBefore));
    // Renditions, archives (a new one, and one made before), copies, new shares.
    assertQuarantined(await call('GET', `/api/v1/file/${infected._id}?width=64`, { token: owner.token }));
    const archive = await call(
      'POST',
      '/api/v1/archives',
      { token: owner.token },
      {
        fileIds: [clean._id, infected._id],
      },
    );
    assertQuarantined(archive);
    assert.deepEqual((archive.body.details as { fileIds: string[] }).fileIds, [infected._id]);
    assert.equal((await fetch(archiveBefore.body.url as string)).status, 410);
    assertQuarantined(
      await call(
        'POST',
        `/api/v1/file/${infected._id}/copy`,
        { token: owner.token },
        { filePath: 'copy.com' },
      ),
    );
    assertQuarantined(
      await call('POST', `/api/v1/file/${infected._id}/acl/role/user`, { token: owner.token }),
    );
    // The record stays listed, saying why.
    const listed = await call('GET', '/api/v1/file?pageSize=100', { token: owner.token });
    const record = (listed.body.docs as { _id: string; quarantine?: Record<string, string> }[]).find(
      (doc) => doc._id === infected._id,
    );
    assert.equal(record?.quarantine?.versionId, infected._id);
    assert.match(record?.quarantine?.signature ?? '', /^Coffer\.Test\.EICAR/);
    // One event, with the signature.
    const events = await eventsOf(infected._id, 'file.quarantined');
    assert.equal(events.length, 1);
    assert.match(String(events[0]!.data.signature), /^Coffer\.Test\.EICAR/);

    // The clean file is untouched.
    const cleanRead = await call('GET', `/api/v1/file/${clean._id}`, { token: owner.token });
    assert.equal(cleanRead.status, 200, cleanRead.text);
    assert.equal(await (await fetch(cleanRead.body.url as string)).text(), 'nothing to see');

    // A second scan, a version a page (the keyset walk), meets the same versions and finds it
    // again, but changes nothing (no second event).
    const again = await scan(undefined, clamd, 1);
    assert.equal(again.scanned, report.scanned);
    assert.deepEqual(
      again.infected.map((hit) => hit.quarantined),
      [false],
    );
    assert.equal((await eventsOf(infected._id, 'file.quarantined')).length, 1);
  });

  it('only project admins release it: then it is readable again, links of before stay dead, one event', async () => {
    const infected = await server.client.uploadFile(owner.token, 'release/eicar.com', eicarBytes());
    const linkBefore = (await call('GET', `/api/v1/file/${infected._id}`, { token: owner.token })).body
      .url as string;
    await scan();
    const release = (as: { token?: string; serviceKey?: string }) =>
      call('POST', `/api/v1/file/${infected._id}/quarantine/release`, as);
    const byOwner = await release({ token: owner.token });
    assert.equal(byOwner.status, 403, byOwner.text);
    assert.equal(byOwner.body.code, 'ACCESS_DENIED');
    assertQuarantined(await call('GET', `/api/v1/file/${infected._id}`, { token: owner.token }));

    const released = await release({ serviceKey });
    assert.equal(released.status, 200, released.text);
    assert.equal(released.body.quarantine, undefined);
    const read = await call('GET', `/api/v1/file/${infected._id}`, { token: owner.token });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(Buffer.from(await (await fetch(read.body.url as string)).arrayBuffer()), eicarBytes());
    const old = await fetchAnswer(linkBefore);
    assert.equal(old.status, 403, old.text);
    assert.equal(old.body.code, 'LINK_REVOKED');
    // Releasing what is not quarantined changes nothing.
    assert.equal((await release({ token: admin.token })).status, 200);
    const events = await eventsOf(infected._id, 'file.quarantine_released');
    assert.equal(events.length, 1);
    assert.match(String(events[0]!.data.signature), /^Coffer\.Test\.EICAR/);
  });

  it('a hit in an earlier version quarantines the file; --since leaves older versions unscanned', async () => {
    const file = await server.client.uploadFile(owner.token, 'versions/report.bin', eicarBytes());
    const requested = await call('POST', `/api/v1/file/${file._id}/versions`, { token: owner.token }, {});
    assert.equal(requested.status, 200, requested.text);
    const put = await fetch(requested.body.putFileUrl as string, {
      method: 'PUT',
      body: 'a clean second version',
      headers: { 'content-type': 'text/plain' },
    });
    const verified = await call(
      'POST',
      new URL(requested.body.postVerifyUploadUrl as string).pathname,
      { token: owner.token },
      { etag: put.headers.get('etag') },
    );
    assert.equal(verified.status, 200, verified.text);
    const versions = await call('GET', `/api/v1/file/${file._id}/versions`, { token: owner.token });
    const second = (versions.body as unknown as { versionId: string; createdAt: string }[])[0]!;
    // From the second version's creation on, only its clean bytes are met.
    const recent = await scan(second.createdAt);
    assert.equal(recent.scanned, 1);
    assert.equal(
      recent.infected.some((hit) => hit.fileId === file._id),
      false,
    );
    assert.equal((await call('GET', `/api/v1/file/${file._id}`, { token: owner.token })).status, 200);
    // Everything: the first version is met, and the file (its clean current version too) is quarantined.
    const all = await scan();
    const hit = all.infected.find((one) => one.fileId === file._id);
    assert.equal(hit?.versionId, file._id);
    assert.equal(hit?.quarantined, true);
    assertQuarantined(await call('GET', `/api/v1/file/${file._id}`, { token: owner.token }));
    assertQuarantined(
      await call('GET', `/api/v1/file/${file._id}?versionId=${file._id}`, { token: owner.token }),
    );
  });

  it('an admin deletes a quarantined file as any other', async () => {
    const infected = await server.client.uploadFile(owner.token, 'delete/eicar.com', eicarBytes());
    await scan();
    assertQuarantined(await call('GET', `/api/v1/file/${infected._id}`, { token: owner.token }));
    const deleted = await call('DELETE', `/api/v1/file/${infected._id}`, { token: admin.token });
    assert.equal(deleted.status, 204, deleted.text);
    assert.equal((await call('GET', `/api/v1/file/${infected._id}`, { token: owner.token })).status, 404);
  });

  it('says what it could not scan, and where to resume when the scanner stops', async () => {
    const since = new Date().toISOString();
    const small = await startClamd({ maxBytes: 100 });
    try {
      const large = await server.client.uploadFile(owner.token, 'resume/large.txt', 'x'.repeat(200));
      const report = await scan(since, small);
      assert.deepEqual(report.skipped, [{ fileId: large._id, versionId: large._id, reason: 'oversize' }]);
      assert.equal(report.resumeSince, undefined);
    } finally {
      await small.close();
    }
    const infected = await server.client.uploadFile(owner.token, 'resume/eicar.com', eicarBytes());
    // The daemon is gone: the run stops at the first version it could not scan, and says so.
    const cut = await scan(since, small);
    assert.equal(cut.scanned, 0);
    assert.ok(cut.resumeSince !== undefined && cut.error !== undefined);
    assert.ok(cut.resumeSince <= new Date().toISOString());
    assert.equal((await call('GET', `/api/v1/file/${infected._id}`, { token: owner.token })).status, 200);
    // Resumed from there with a running scanner: the file is met and quarantined.
    const resumed = await scan(cut.resumeSince);
    assert.deepEqual(
      resumed.infected.map((hit) => hit.fileId),
      [infected._id],
    );
    assertQuarantined(await call('GET', `/api/v1/file/${infected._id}`, { token: owner.token }));
  });
});
