import { S3BlobStore, parseS3StorageUrl } from '../../src/blob-stores/s3-blob-store.ts';
import { generatedBody, peakRssGrowth, bodyOf } from './byte-streams.ts';
import { startS3Server } from './s3-server.ts';
const server = await startS3Server();
const store = new S3BlobStore({ ...parseS3StorageUrl(server.storageUrl), credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
const mem = (l: string) => { const m = process.memoryUsage(); console.log(l, 'rss', (m.rss / 2 ** 20).toFixed(1), 'ab', (m.arrayBuffers / 2 ** 20).toFixed(1)); };
await store.put('p/small', bodyOf('x'), { contentType: 'a/b', maxBytes: 1e9 });
mem('after small');
const g0 = generatedBody(12 * 1024 * 1024);
await store.put('p/mid', g0.body, { contentType: 'a/b', maxBytes: 1e9 });
(globalThis as any).gc?.(); mem('after 12MiB multipart + gc');
for (let i = 0; i < 2; i++) {
  const g = generatedBody(64 * 1024 * 1024);
  const growth = await peakRssGrowth(async () => { await store.put('p/big', g.body, { contentType: 'a/b', maxBytes: 1e9 }); });
  mem(`put ${i} growth ${(growth / 2 ** 20).toFixed(1)}`);
  (globalThis as any).gc?.(); mem('after gc');
}
await store.close(); await server.stop();
