// Runs s3rver in its own process for startS3Server(), so its memory and CPU stay out of the
// test process (the blob store contract measures that process's RSS). Prints one JSON line.
import S3rver from '@20minutes/s3rver';
import { s3rverFixes } from './s3rver-fixes.ts';

const [directory = '', bucket = '', secretAccessKey = '', port = '0'] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  // 0 picks a free port; a restarted server takes its old one again.
  port: Number(port),
  silent: true,
  directory,
  // s3rverFixes checks signatures instead (s3rver's own check rejects valid ones).
  allowMismatchedSignatures: true,
  configureBuckets: [{ name: bucket }],
});
server.middleware.unshift(s3rverFixes({ directory, secretAccessKey }));
const address = await server.run();
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
// The parent ends us by closing stdin (also when it dies without cleaning up).
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
