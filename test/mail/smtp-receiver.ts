import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { parsed: ParsedMail; secure: boolean; user: string | undefined };

/**
 * A real SMTP server on loopback (smtp-server; mailparser reads what arrives). It takes any
 * login; a recipient in `refuse` gets a permanent 550. With `tls` it offers STARTTLS.
 */
export async function startSmtpReceiver(
  options: { port?: number; refuse?: string[]; tls?: { cert: string; key: string } } = {},
) {
  const received: ReceivedMail[] = [];
  const tls = options.tls && { cert: await readFile(options.tls.cert), key: await readFile(options.tls.key) };
  const server = new SMTPServer({
    ...(tls ?? { disabledCommands: ['STARTTLS'] }),
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    onRcptTo: (address, _session, callback) => {
      if (options.refuse?.includes(address.address)) {
        const refused = Object.assign(new Error('5.1.1 no such mailbox here'), { responseCode: 550 });
        return callback(refused);
      }
      callback();
    },
    onData: (stream, session, callback) => {
      simpleParser(stream).then(
        (parsed) => {
          received.push({ parsed, secure: session.secure, user: session.user as string | undefined });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port nothing listens on (taken, then let go): the SMTP server is down. */
export async function freePort(): Promise<number> {
  const receiver = await startSmtpReceiver();
  await receiver.close();
  return receiver.port;
}
