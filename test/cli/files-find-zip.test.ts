import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { startDownloadCuttingProxy } from '../support/download-cutting-proxy.ts';
import { freePort } from '../support/postgres-server.ts';

type Login = Awaited<ReturnType<CofferProcess['client']['signup']>>;

// `coffer files find` and `coffer files zip` (issue 40) through the real process against a
// running `coffer serve`, whose public URL is a proxy that cuts the first archive download
// midway: zip must resume it and write the same bytes unzip accepts.
describe('coffer files find and zip, against a running server', () => {
  let coffer: CofferProcess;
  let proxy: Awaited<ReturnType<typeof startDownloadCuttingProxy>>;
  let scratch: string;
  const users: Record<string, Login> = {};
  const envs: Record<string, Record<string, string>> = {};
  const ids: Record<string, string> = {};
  const big = { a: randomBytes(150_000), b: randomBytes(120_000) };
  const as = (who: string, args: string[]) => runCli(args, envs[who]);
  const jsonLines = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));

  before(async () => {
    proxy = await startDownloadCuttingProxy({ pathPrefix: '/blob/v1/archives/', cutAfterBytes: 100_000 });
    const port = await freePort();
    proxy.setTarget(`http://127.0.0.1:${port}`);
    coffer = await startCofferProcess({ args: ['--port', String(port), '--public-url', proxy.baseUrl] });
    scratch = await mkdtemp(path.join(tmpdir(), 'coffer-find-zip-cli-'));
    for (const who of ['ada', 'bob']) {
      users[who] = await coffer.client.signup(`${who}@find-zip.example`);
      envs[who] = {
        COFFER_CREDENTIALS_FILE: path.join(scratch, who, 'credentials.json'),
        COFFER_APP_SECRET: coffer.credentials.appSecret,
      };
      const login = await runCli(
        [
          'login',
          '--url',
          coffer.baseUrl,
          '--app-id',
          coffer.credentials.appId,
          '--email',
          users[who]!.email,
          '--password-stdin',
        ],
        envs[who],
        { input: users[who]!.password, timeoutMs: 60_000 },
      );
      assert.equal(login.code, 0, login.stderr);
    }
    const token = users.ada!.token;
    const upload = async (name: string, filePath: string, content: string | Buffer, contentType: string) => {
      ids[name] = (await coffer.client.uploadFile(token, filePath, content, { contentType }))._id;
    };
    await upload('sunset', 'album/Sunset.jpg', big.a, 'image/jpeg');
    await upload('sunrise', 'album/sub/sunrise.png', big.b, 'image/png');
    await upload('notes', 'notes/sun-notes.txt', 'warm', 'text/plain');
    const patched = await coffer.client.call('PATCH', `/api/v1/file/${ids.notes}`, {
      token,
      body: { customData: { album: 7, done: true } },
    });
    assert.equal(patched.status, 200, patched.text);
    const shared = await coffer.client.call(
      'POST',
      `/api/v1/file/${ids.notes}/acl/user/${users.bob!.userId}`,
      {
        token,
      },
    );
    assert.equal(shared.status, 200, shared.text);
  });
  after(async () => {
    await coffer?.stop();
    await proxy?.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('finds by name, type, customData, size and scope, printed as files ls prints, up to --limit', async () => {
    const byName = await as('ada', ['files', 'find', '--name', 'SUN']);
    assert.equal(byName.code, 0, byName.stderr);
    const lines = byName.stdout.trim().split('\n');
    assert.deepEqual(
      lines.map((line) => line.split(/\s+/)[0]),
      [ids.notes, ids.sunrise, ids.sunset],
      'newest first',
    );
    assert.match(lines[0]!, /^\S+\s+4 B {2}notes\/sun-notes\.txt$/);

    const find = async (who: string, flags: string[]) => {
      const result = await as(who, ['files', 'find', ...flags, '--json']);
      assert.equal(result.code, 0, result.stderr);
      return jsonLines(result.stdout).map((file) => file._id as string);
    };
    assert.deepEqual(await find('ada', ['--type', 'image/*']), [ids.sunrise, ids.sunset]);
    assert.deepEqual(await find('ada', ['--custom', 'album=7', '--custom', 'done=true']), [ids.notes]);
    assert.deepEqual(await find('ada', ['--custom', 'album="7"']), [], 'the text 7 is not the number');
    assert.deepEqual(await find('ada', ['--min-size', '130000']), [ids.sunset]);
    assert.deepEqual(
      await find('ada', ['--name', 'sun', '--path', 'album/', '--sort', 'size', '--order', 'asc']),
      [ids.sunrise, ids.sunset],
    );
    assert.deepEqual(await find('bob', ['--name', 'sun', '--scope', 'shared']), [ids.notes]);
    assert.deepEqual(await find('bob', ['--name', 'sun', '--scope', 'mine']), []);

    const limited = await as('ada', ['files', 'find', '--name', 'sun', '--limit', '2', '--json']);
    assert.equal(limited.code, 0, limited.stderr);
    assert.deepEqual(
      jsonLines(limited.stdout).map((file) => file._id),
      [ids.notes, ids.sunrise],
    );
    assert.match(limited.stderr, /more files match than --limit 2/);

    const tooShort = await as('ada', ['files', 'find', '--name', 'su', '--json']);
    assert.equal(tooShort.code, 2);
    assert.equal(JSON.parse(tooShort.stdout).code, 'VALIDATION_FAILED');
  });

  it('zips a folder to a file, resuming the download the proxy cut; prints a selection link with --url', async () => {
    const out = path.join(scratch, 'album.zip');
    const zipped = await as('ada', ['files', 'zip', '--folder', 'album', '--out', out, '--json']);
    assert.equal(zipped.code, 0, zipped.stderr);
    const result = JSON.parse(zipped.stdout.trim().split('\n').at(-1)!);
    assert.equal(proxy.cuts(), 1, 'the proxy cut the first download');
    assert.equal(result.resumed, true);
    assert.equal(result.fileCount, 2);
    assert.equal((await readFile(out)).length, result.archiveBytes);
    execFileSync('unzip', ['-tq', out]);
    assert.deepEqual(execFileSync('unzip', ['-p', out, 'Sunset.jpg']), big.a);
    assert.deepEqual(execFileSync('unzip', ['-p', out, 'sub/sunrise.png']), big.b);

    const again = await as('ada', ['files', 'zip', '--folder', 'album/', '--out', out]);
    assert.equal(again.code, 2, 'never over a file without --force');

    const link = await as('ada', ['files', 'zip', ids.notes!, ids.sunset!, '--url']);
    assert.equal(link.code, 0, link.stderr);
    const response = await fetch(link.stdout.trim());
    assert.equal(response.status, 200);
    const selection = path.join(scratch, 'selection.zip');
    await writeFile(selection, Buffer.from(await response.arrayBuffer()));
    assert.deepEqual(
      execFileSync('unzip', ['-Z1', selection], { encoding: 'utf8' }).trim().split('\n').sort(),
      ['album/Sunset.jpg', 'notes/sun-notes.txt'],
    );

    const refused = await as('bob', [
      'files',
      'zip',
      ids.sunset!,
      '--out',
      path.join(scratch, 'no.zip'),
      '--json',
    ]);
    assert.equal(refused.code, 1);
    assert.equal(JSON.parse(refused.stdout.trim()).code, 'ACCESS_DENIED');
  });
});
