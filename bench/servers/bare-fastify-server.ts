/**
 * Request-rate ceiling: a bare Fastify route answering a constant JSON of a requested size.
 * Scenarios call it with the same method, headers and body as their own request, asking for
 * exactly as many bytes as Coffer's answer, so the ratio prices Coffer's own work only.
 * Run as its own process: `node bench/servers/bare-fastify-server.ts [--workers N]`; with N > 1
 * a node:cluster primary owns the port and hands connections to N workers in turn, as
 * `coffer serve --workers N` does: the control for how a second worker scales on this machine.
 */
import cluster from 'node:cluster';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';

const workers = Number(parseArgs({ options: { workers: { type: 'string' } } }).values.workers ?? 1);
if (workers > 1 && cluster.isPrimary) {
  cluster.setupPrimary({ args: [] });
  let listening = 0;
  cluster.on('listening', (_worker, address) => {
    if (++listening === workers) console.log(`listening at http://127.0.0.1:${address.port}`);
  });
  for (let index = 0; index < workers; index++) cluster.fork();
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.once(signal, () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    });
} else {
  await serve();
}

async function serve(): Promise<void> {
  const app = Fastify({ logger: false });
  const answers = new Map<number, string>();

  /** `{"pad":"xxx…"}`, exactly `bytes` long (at least the 10 bytes of the envelope). */
  function toAnswer(bytes: number): string {
    let answer = answers.get(bytes);
    if (answer === undefined) {
      answer = `{"pad":"${'x'.repeat(Math.max(0, bytes - 10))}"}`;
      answers.set(bytes, answer);
    }
    return answer;
  }

  app.route<{ Params: { bytes: string } }>({
    method: ['GET', 'POST'],
    url: '/json/:bytes',
    handler: async (request, reply) =>
      reply.type('application/json; charset=utf-8').send(toAnswer(Number(request.params.bytes) || 0)),
  });

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  if (cluster.isPrimary) console.log(`listening at ${address}`);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close());
}
