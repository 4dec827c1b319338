// A process in the middle of a blob upload, for tests that kill it (kill -9) and then look at
// what it left: puts an endless body into an FsBlobStore at argv[2], prints one line once its
// temp file holds bytes, and keeps writing until killed.
import { Readable } from 'node:stream';
import { FsBlobStore } from '../../src/blob-stores/fs-blob-store.ts';

const [rootDir = ''] = process.argv.slice(2);
let sent = 0;
const body = new Readable({
  read() {
    sent += 1;
    if (sent === 4) process.stdout.write('writing\n');
    setTimeout(() => this.push(Buffer.alloc(64 * 1024, 1)), 5);
  },
});
await new FsBlobStore({ rootDir }).put('p/f', body, {
  contentType: 'a/b',
  maxBytes: Number.MAX_SAFE_INTEGER,
});
