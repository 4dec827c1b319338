/**
 * Request-rate ceiling: a bare Fastify route answering a constant JSON of a requested size.
 * Scenarios call it with the same method, headers and body as their own request, asking for
 * exactly as many bytes as Coffer's answer, so the ratio prices Coffer's own work only.
 * Run as its own process: `node bench/servers/bare-fastify-server.ts`.
 */
import Fastify from 'fastify';

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
console.log(`listening at ${address}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close());
