// The image's HEALTHCHECK: healthy while GET /readyz on this container's own listener answers
// 200 (the database and blob store reachable). Runs on the image's Node, without curl.
import http from 'node:http';
import https from 'node:https';

const host = process.env.COFFER_HOST ?? '127.0.0.1';
// A wildcard bind is reached on loopback; the probe talks to its own process, so a self-signed
// certificate is fine to accept here.
const target = ['0.0.0.0', '::', ''].includes(host) ? '127.0.0.1' : host;
const client = process.env.COFFER_TLS_CERT ? https : http;
const request = client.get(
  {
    host: target,
    port: Number(process.env.COFFER_PORT ?? 8080),
    path: '/readyz',
    timeout: 4000,
    rejectUnauthorized: false,
  },
  (response) => {
    response.resume();
    process.exit(response.statusCode === 200 ? 0 : 1);
  },
);
request.on('timeout', () => request.destroy(new Error('timed out')));
request.on('error', (error) => {
  console.error(`readyz: ${error.message}`);
  process.exit(1);
});
