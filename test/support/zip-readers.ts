import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';

/**
 * Checks a ZIP file with three stock readers (issue 40: "the zip reader is not yours"):
 * Debian's `unzip -t`, Python's zipfile (every entry read whole, which checks its CRC-32 as
 * testzip does, and its SHA-256 against `expected`, name by name) and 7-Zip's `t` (`7zz`, or
 * `7z` where that is what is installed).
 */
export async function assertStockReadersAccept(
  zipPath: string,
  expected: Map<string, string>,
): Promise<void> {
  const unzip = await run('unzip', ['-tq', zipPath]);
  assert.equal(unzip.code, 0, `unzip -t: ${unzip.output}`);
  assert.match(unzip.output, /No errors detected/);

  const manifest = `${zipPath}.expected.json`;
  await writeFile(manifest, JSON.stringify(Object.fromEntries(expected)));
  const python = await run('python3', ['-c', pythonCheck, zipPath, manifest]);
  assert.equal(python.code, 0, `python3 zipfile: ${python.output}`);
  assert.match(python.output, new RegExp(`ok ${expected.size}\\b`));

  const sevenZip = existsSync('/usr/bin/7zz') ? '7zz' : '7z';
  const seven = await run(sevenZip, ['t', zipPath]);
  assert.equal(seven.code, 0, `${sevenZip} t: ${seven.output}`);
  assert.match(seven.output, /Everything is Ok/);
}

const pythonCheck = `
import hashlib, json, sys, zipfile
path, manifest = sys.argv[1], sys.argv[2]
expected = json.load(open(manifest, encoding='utf-8'))
with zipfile.ZipFile(path) as archive:
    # No testzip(): reading each entry to its end below checks its CRC-32 the same way
    # (zipfile raises BadZipFile on a mismatch); testzip read every byte a second time.
    infos = archive.infolist()
    names = [info.filename for info in infos]
    assert len(names) == len(set(names)), 'duplicate names'
    assert set(names) == set(expected), 'names differ: %r' % sorted(set(names) ^ set(expected))[:10]
    for info in infos:
        digest = hashlib.sha256()
        with archive.open(info) as entry:
            while True:
                chunk = entry.read(1 << 20)
                if not chunk:
                    break
                digest.update(chunk)
        assert digest.hexdigest() == expected[info.filename], 'bytes differ: %r' % info.filename
print('ok', len(infos))
`;

function run(command: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return reject(error);
      resolve({ code: error ? Number(error.code) : 0, output: `${stdout}${stderr}` });
    });
  });
}
