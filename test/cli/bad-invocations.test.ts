import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../support/coffer-process.ts';
import { currentStackName } from '../support/test-stack.ts';
import { makeCertificate } from '../support/tls-fixtures.ts';

/** Files the cases point at, made once in `before`. */
type Fixtures = {
  dir: string;
  /** A data dir with a database. */
  dataDir: string;
  cert: string;
  key: string;
  otherKey: string;
  aFile: string;
  exportDir: string;
  badMetadataDir: string;
  busyPort: string;
};

type Case = {
  name: string;
  args: (f: Fixtures) => string[];
  env?: Record<string, string>;
  /** What the one line on stderr must name: the flag, the variable or the file to fix. */
  names: (f: Fixtures) => RegExp;
};

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// The name, not the start of a longer one (--port, not --port-x).
const flag = (name: string) => () => new RegExp(`${literal(name)}(?![\\w-])`);

// Every way an operator can get a flag, a variable or a file wrong: each must stop with exit
// status 2 and one line naming what to fix (never a stack trace or a library's raw text).
const cases: Case[] = [
  { name: 'unknown command', args: () => ['frobnicate'], names: flag('frobnicate') },
  { name: 'unknown subcommand', args: () => ['user', 'frob'], names: flag('user frob') },
  { name: 'group without subcommand', args: () => ['user'], names: flag('user') },
  { name: 'unexpected argument', args: () => ['migrate', 'extra'], names: flag('extra') },
  { name: 'unknown flag', args: () => ['serve', '--frob'], names: flag('--frob') },
  { name: 'flag without its value', args: () => ['serve', '--port'], names: flag('--port') },
  { name: 'flag another command takes', args: () => ['migrate', '--port', '1'], names: flag('--port') },
  { name: 'boolean flag given a value', args: () => ['gc', '--apply=yes'], names: flag('--apply') },
  {
    name: '--trust-proxy neither a hop count nor addresses',
    args: () => ['serve', '--trust-proxy', 'proxy.example.com'],
    names: flag('--trust-proxy proxy.example.com'),
  },
  { name: 'missing required flag', args: () => ['export'], names: flag('--out') },
  { name: 'missing required argument', args: () => ['project', 'create'], names: flag('<name>') },
  {
    name: 'an origin that is no URL',
    args: (f) => ['project', 'create', 'mobile', '--origin', 'not-a-url', '--data-dir', f.dataDir],
    names: flag('origin "not-a-url"'),
  },
  // An unknown project or user is no invocation to fix but a thing not found: status 1
  // (test/cli/user-admin.test.ts).
  {
    name: 'user find without its email',
    args: () => ['user', 'find', '--project', 'p'],
    names: flag('<email>'),
  },
  {
    name: 'a password neither piped nor typed',
    args: () => ['user', 'reset-password', '--project', 'p', 'AAAAAAAAAAAAAAAAAAAAAA'],
    names: flag('--password-stdin'),
  },
  {
    name: 'a password on the command line of reset-password',
    args: () => ['user', 'reset-password', '--project', 'p', 'AAAAAAAAAAAAAAAAAAAAAA', '--password', 'x'],
    names: flag('--password'),
  },
  {
    name: '--password and --password-stdin both',
    args: () => [
      'user',
      'create',
      '--project',
      'p',
      '--email',
      'a@b.c',
      '--password',
      'x',
      '--password-stdin',
    ],
    names: flag('--password-stdin'),
  },
  { name: '--port 99999', args: () => ['serve', '--port', '99999'], names: flag('--port') },
  { name: '--port abc', args: () => ['serve', '--port', 'abc'], names: flag('--port') },
  { name: 'COFFER_PORT=-1', args: () => ['serve'], env: { COFFER_PORT: '-1' }, names: flag('COFFER_PORT') },
  { name: '--workers 0', args: () => ['serve', '--workers', '0'], names: flag('--workers') },
  { name: '--workers abc', args: () => ['serve', '--workers', 'abc'], names: flag('--workers') },
  { name: '--log-level loud', args: () => ['serve', '--log-level', 'loud'], names: flag('--log-level') },
  {
    name: 'COFFER_LOG_LEVEL=loud',
    args: () => ['migrate'],
    env: { COFFER_LOG_LEVEL: 'loud' },
    names: flag('COFFER_LOG_LEVEL'),
  },
  {
    name: 'COFFER_TRUST_PROXY=maybe',
    args: () => ['serve'],
    env: { COFFER_TRUST_PROXY: 'maybe' },
    names: flag('COFFER_TRUST_PROXY'),
  },
  {
    name: 'COFFER_UPLOAD_MODE=fast',
    args: () => ['serve'],
    env: { COFFER_UPLOAD_MODE: 'fast' },
    names: flag('COFFER_UPLOAD_MODE'),
  },
  {
    name: 'COFFER_UPLOAD_MODE=direct on a disk store',
    args: () => ['serve'],
    env: { COFFER_UPLOAD_MODE: 'direct' },
    names: flag('COFFER_UPLOAD_MODE'),
  },
  {
    name: 'a timeout past what Node timers hold',
    args: () => ['serve'],
    env: { COFFER_DATABASE_BUSY_TIMEOUT_MS: '99999999999' },
    names: flag('COFFER_DATABASE_BUSY_TIMEOUT_MS'),
  },
  {
    name: '--public-url not-a-url',
    args: () => ['serve', '--public-url', 'not-a-url'],
    names: flag('--public-url'),
  },
  {
    name: '--public-url with another scheme',
    args: () => ['serve', '--public-url', 'ftp://files.example.com'],
    names: flag('--public-url'),
  },
  {
    name: '--public-url with a query',
    args: () => ['serve', '--public-url', 'https://files.example.com/?a=1'],
    names: flag('--public-url'),
  },
  {
    name: '--public-url with a fragment',
    args: () => ['serve', '--public-url', 'https://files.example.com/#top'],
    names: flag('--public-url'),
  },
  {
    name: '--database-url of an unknown kind',
    args: () => ['migrate', '--database-url', 'mysql://db/coffer'],
    names: flag('--database-url'),
  },
  {
    name: '--storage-url of an unknown kind',
    args: () => ['serve', '--storage-url', 'ftp://files'],
    names: flag('--storage-url'),
  },
  {
    name: '--storage-url with an unknown S3 parameter',
    args: () => ['serve', '--storage-url', 's3://bucket?forcepathstyle=true'],
    names: flag('--storage-url'),
  },
  {
    name: '--host that is no host name',
    args: () => ['serve', '--host', 'not a host'],
    names: flag('--host'),
  },
  {
    name: 'plain HTTP on a non-loopback bind',
    args: () => ['serve', '--host', '0.0.0.0'],
    names: flag('--host'),
  },
  {
    name: '--host this machine does not have',
    args: () => [
      'serve',
      '--host',
      '192.0.2.1',
      '--trust-proxy',
      '--public-url',
      'https://files.example.com',
    ],
    names: flag('--host'),
  },
  {
    name: '--port already in use',
    args: (f) => ['serve', '--port', f.busyPort],
    names: (f) => new RegExp(`--port ${f.busyPort}`),
  },
  {
    name: '--tls-cert without --tls-key',
    args: (f) => ['serve', '--tls-cert', f.cert],
    names: flag('--tls-key'),
  },
  {
    name: 'a missing certificate file',
    args: (f) => ['serve', '--tls-cert', path.join(f.dir, 'missing.pem'), '--tls-key', f.key],
    names: (f) => new RegExp(`--tls-cert ${literal(path.join(f.dir, 'missing.pem'))}`),
  },
  {
    name: 'certificate and key swapped',
    args: (f) => ['serve', '--tls-cert', f.key, '--tls-key', f.cert],
    names: (f) => new RegExp(`--tls-cert ${literal(f.key)}.*swapped`),
  },
  {
    name: 'a key that does not match the certificate',
    args: (f) => ['serve', '--tls-cert', f.cert, '--tls-key', f.otherKey],
    names: (f) => new RegExp(`--tls-key ${literal(f.otherKey)}`),
  },
  {
    name: 'a bad certificate stops --workers 2 before any worker starts',
    args: (f) => ['serve', '--workers', '2', '--tls-cert', f.aFile, '--tls-key', f.key],
    names: (f) => new RegExp(`--tls-cert ${literal(f.aFile)}`),
  },
  {
    name: '--data-dir under a regular file',
    args: (f) => ['serve', '--data-dir', path.join(f.aFile, 'data')],
    names: (f) => new RegExp(`--data-dir ${literal(path.join(f.aFile, 'data'))}`),
  },
  {
    name: '--data-dir that is a regular file',
    args: (f) => ['serve', '--data-dir', f.aFile],
    names: (f) => new RegExp(`--data-dir ${literal(f.aFile)}`),
  },
  {
    name: 'export --out a directory that holds an export',
    args: (f) => ['export', '--data-dir', f.dataDir, '--out', f.exportDir],
    names: (f) => new RegExp(`--out ${literal(f.exportDir)}`),
  },
  {
    name: 'export --out a regular file',
    args: (f) => ['export', '--data-dir', f.dataDir, '--out', f.aFile],
    names: (f) => new RegExp(`--out ${literal(f.aFile)}`),
  },
  {
    name: 'export from a data dir without a database',
    args: (f) => ['export', '--data-dir', path.join(f.dir, 'nothing-here'), '--out', path.join(f.dir, 'out')],
    names: (f) => new RegExp(literal(path.join(f.dir, 'nothing-here', 'coffer.db'))),
  },
  {
    name: 'import --in a missing directory',
    args: (f) => ['import', '--in', path.join(f.dir, 'missing')],
    names: (f) => new RegExp(`--in ${literal(path.join(f.dir, 'missing'))}`),
  },
  {
    name: 'import --in a directory without metadata.ndjson',
    args: (f) => ['import', '--in', f.dir],
    names: (f) => new RegExp(literal(path.join(f.dir, 'metadata.ndjson'))),
  },
  {
    name: 'import --in an export with a damaged line',
    args: (f) => ['import', '--in', f.badMetadataDir],
    names: (f) => new RegExp(`${literal(path.join(f.badMetadataDir, 'metadata.ndjson'))}.*line 2`),
  },
  // files find and zip check their flags before they look for a saved login.
  { name: 'files find --limit 0', args: () => ['files', 'find', '--limit', '0'], names: flag('--limit 0') },
  {
    name: 'files find --custom without =',
    args: () => ['files', 'find', '--custom', 'album'],
    names: flag('--custom album'),
  },
  {
    name: 'files find --min-size in words',
    args: () => ['files', 'find', '--min-size', 'big'],
    names: flag('--min-size big'),
  },
  { name: 'files zip with nothing to zip', args: () => ['files', 'zip'], names: flag('--folder') },
  {
    name: 'files zip with a folder and ids',
    args: () => ['files', 'zip', '--folder', 'a/', 'AAAAAAAAAAAAAAAAAAAAAA'],
    names: flag('--folder'),
  },
  {
    name: 'files zip --url with a value',
    args: () => ['files', 'zip', '--url', 'AAAAAAAAAAAAAAAAAAAAAA'],
    names: flag('--url'),
  },
];

describe('bad invocations: exit status 2 and one line naming what to fix', {
  concurrency: 4,
  // The same binary and flags on either stack: the embedded pass covers it.
  skip: currentStackName() === 'pg-s3' && 'stack-independent (runs in the embedded pass)',
}, () => {
  const f = {} as Fixtures;
  let busy: Server;
  before(async () => {
    f.dir = await mkdtemp(path.join(tmpdir(), 'coffer-bad-'));
    Object.assign(f, await makeCertificate(f.dir, 'server'));
    f.otherKey = (await makeCertificate(f.dir, 'other')).key;
    f.aFile = path.join(f.dir, 'a-file.txt');
    await writeFile(f.aFile, 'not a directory, not a certificate\n');
    f.exportDir = path.join(f.dir, 'old-export');
    await mkdir(f.exportDir);
    await writeFile(path.join(f.exportDir, 'metadata.ndjson'), '');
    f.badMetadataDir = path.join(f.dir, 'damaged-export');
    await mkdir(f.badMetadataDir);
    await writeFile(
      path.join(f.badMetadataDir, 'metadata.ndjson'),
      '{"table":"projects","row":{}}\n{"table":"projects",\n',
    );
    f.dataDir = path.join(f.dir, 'data');
    assert.equal((await runCli(['migrate', '--data-dir', f.dataDir])).code, 0);
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    f.busyPort = String((busy.address() as { port: number }).port);
  });
  after(async () => {
    await new Promise((resolve) => busy.close(resolve));
    await rm(f.dir, { recursive: true, force: true });
  });

  cases.forEach((c, i) => {
    it(c.name, async () => {
      let args = c.args(f);
      if (!args.includes('--data-dir')) args = [...args, '--data-dir', path.join(f.dir, `data-${i}`)];
      if (args[0] === 'serve' && !args.some((a) => a.startsWith('--port')) && !c.env?.COFFER_PORT)
        args = [...args, '--port', '0'];
      // A serve that wrongly starts is stopped after a while (and the case fails).
      const result = await runCli(args, c.env, { timeoutMs: 90_000 });
      const lines = result.stderr.split('\n').filter((line) => line.trim() !== '');
      assert.equal(result.code, 2, `exit status of coffer ${args.join(' ')}:\n${result.stderr}`);
      assert.equal(lines.length, 1, `one line on stderr, got:\n${result.stderr}`);
      assert.match(lines[0]!, /^coffer: /);
      assert.doesNotMatch(result.stderr, /^\s+at |node:internal|Error:/m);
      assert.match(lines[0]!, c.names(f));
    });
  });
});
