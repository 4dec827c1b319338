import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One call the receiver took: the verified payload (Webhook.verify's result) and its headers. */
export type AdmissionCallSeen = {
  payload: {
    type: string;
    data: {
      fileId: string;
      versionId: string;
      filePath: string;
      creator: string;
      size: number;
      contentType: string;
      checksumSha256: string | null;
      customData: unknown;
      url: string;
    };
  };
  webhookId: string;
};

/**
 * A stock receiver of admission hooks for tests: checks every call with the `standardwebhooks`
 * package's own Webhook.verify (not Coffer's code) and answers what `answer` says; `answer` may
 * read the pending bytes through the call's url first.
 */
export async function startAdmissionReceiver(
  secret: string,
  answer: (call: AdmissionCallSeen) => Promise<{ status: number; body: string } | 'hang'>,
) {
  const calls: AdmissionCallSeen[] = [];
  const refusedSignatures: string[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('error', () => response.destroy());
    response.on('error', () => {});
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let payload: AdmissionCallSeen['payload'];
      try {
        payload = new Webhook(secret).verify(body, request.headers as Record<string, string>) as never;
      } catch (error) {
        refusedSignatures.push(String(error));
        response.writeHead(401).end();
        return;
      }
      const call = { payload, webhookId: String(request.headers['webhook-id']) };
      calls.push(call);
      const reply = await answer(call).catch((error: unknown) => ({ status: 500, body: String(error) }));
      if (reply === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/admit`,
    calls,
    refusedSignatures,
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
