import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { CofferClient } from '../../packages/client/src/index.ts';
import { toTreeText, walkFolderTree } from '../../src/cli/folder-tree.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

// The tree of `coffer files ls <folder/>` across pages of files (the command asks 1,000 a
// page; here 2, so every folder takes several), against a real server. files-folders.test.ts
// drives the command itself.
let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.stop());

it('walks every page of every folder in order, drawing each last entry last; a folder gone meanwhile is left out', async () => {
  const client = new CofferClient({
    baseUrl: server.baseUrl,
    appId: server.credentials.appId,
    appSecret: server.credentials.appSecret,
  });
  await client.signup({ email: 'pages@tree.example', password: 'correct horse' });
  for (const [filePath, content] of [
    ['p/a.txt', 'a'],
    ['p/b.txt', 'b'],
    ['p/c.txt', 'c'],
    ['p/d.txt', 'd'],
    ['p/e.txt', 'e'],
    ['p/sub/x.txt', 'xx'],
    ['p/sub/y.txt', 'yy'],
    ['p/sub/z.txt', 'zz'],
    ['p/sub/deeper/w.txt', 'www'],
    ['p/gone/g.txt', 'g'],
  ])
    await client.upload(filePath!, content!);

  const lines: string[] = [];
  for await (const line of walkFolderTree(client, 'p/', { pageSize: 2 })) {
    lines.push(toTreeText(line));
    // Deleted after its parent's page named it, before the walk opens it.
    if ('folder' in line && line.folder.path === 'p/gone/') await client.folders.delete('p/gone/');
  }
  assert.deepEqual(lines, [
    '      15 B  p/  (10 files)',
    '       1 B  ├── gone/  (1 file)',
    '       9 B  ├── sub/  (4 files)',
    '       3 B  │   ├── deeper/  (1 file)',
    '       3 B  │   │   └── w.txt',
    '       2 B  │   ├── x.txt',
    '       2 B  │   ├── y.txt',
    '       2 B  │   └── z.txt',
    '       1 B  ├── a.txt',
    '       1 B  ├── b.txt',
    '       1 B  ├── c.txt',
    '       1 B  ├── d.txt',
    '       1 B  └── e.txt',
  ]);
});
