import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Clamd, clamdMissing, eicarBytes, eicarSignature, startClamd } from '../support/clamd.ts';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { type ConsoleCall, signInToConsole } from '../support/console-client.ts';

/**
 * Issue 42, "no side door": the console's upload into a user's files (an operator's request, the
 * PUT to its link, the console's verify) passes the same malware gate, on a real `coffer serve`.
 */
describe('console uploads are scanned', { skip: clamdMissing ?? false }, () => {
  let clamd: Clamd;
  let coffer: CofferProcess;
  let call: ConsoleCall;
  let files: string;
  let ownerId: string;

  before(async () => {
    clamd = await startClamd();
    coffer = await startCofferProcess({ env: { COFFER_SCAN_URL: clamd.url } });
    call = await signInToConsole(coffer);
    files = `/projects/${coffer.credentials.projectId}/files`;
    ownerId = (await coffer.client.signup()).userId;
  });
  after(async () => {
    await coffer?.stop();
    await clamd?.close();
  });

  /** The console's three steps; answers the PUT's status and the verify's answer. */
  const upload = async (filePath: string, content: Buffer) => {
    const requested = await call('POST', files, { ownerId, filePath, contentLength: content.length });
    assert.equal(requested.status, 200, JSON.stringify(requested.body));
    const put = await fetch(requested.body.putFileUrl, { method: 'PUT', body: new Uint8Array(content) });
    const etag = put.headers.get('etag') ?? '"none"';
    const verified = await call('POST', `${files}/${requested.body.fileId}/verify`, { etag });
    return { put, verified, fileId: requested.body.fileId as string };
  };

  it('EICAR uploaded through the console is refused (422 FILE_INFECTED); clean bytes show meta.scan', async () => {
    const bad = await upload('console/eicar.txt', Buffer.concat([eicarBytes(), Buffer.from('\n')]));
    assert.equal(bad.put.status, 422);
    const refused = (await bad.put.json()) as { code: string; details: { signature: string } };
    assert.equal(refused.code, 'FILE_INFECTED');
    assert.ok(refused.details.signature.startsWith(eicarSignature));
    const shown = await call('GET', `${files}/${bad.fileId}`);
    assert.notEqual(shown.body?.file?.verified, true, 'never verified');
    const good = await upload('console/clean.txt', Buffer.from('nothing to see'));
    assert.equal(good.put.status, 200);
    assert.equal(good.verified.status, 200, JSON.stringify(good.verified.body));
    assert.equal(good.verified.body.file.meta.scan.result, 'clean');
  });
});
