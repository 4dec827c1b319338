import { connect, type NetConnectOpts, type Socket } from 'node:net';
import type { ScanFeed, Scanner, ScanVerdict } from '../domain/admission/scanner.ts';
import type { Clock } from '../domain/clock.ts';
import { scannerUnavailable } from '../errors/admission-errors.ts';
import { ScanSlots } from './scan-slots.ts';

/** Where clamd listens: a TCP port or a Unix socket (COFFER_SCAN_URL, scan-settings.ts). */
export type ClamdAddress = { host: string; port: number } | { path: string };

export type ClamdScannerOptions = {
  address: ClamdAddress;
  /** clamd.conf's StreamMaxLength: Coffer refuses larger streams itself (a clamd past MaxFileSize says OK). */
  maxBytes: number;
  /** Scans at once; more wait for a slot (COFFER_SCAN_CONCURRENCY). */
  concurrency: number;
  /** The longest silence (connecting, writing, answering) before the scan counts as unavailable. */
  timeoutMs: number;
  clock: Clock;
};

/** clamd(8): "It is mandatory to prefix this command with n or z"; z: replies end with a NUL too. */
const instream = Buffer.from('zINSTREAM\0');
/** clamd(8): "The stream is terminated by sending a zero-length chunk." */
const endOfStream = Buffer.alloc(4);
/** Chunks clamd takes at once; larger reads are cut (its StreamMaxLength counts the sum, not a chunk). */
const maxChunkBytes = 64 * 1024;
/**
 * What a connection holds unsent before a writer waits for it to drain. A socket's default
 * (16 KiB) is less than one 64 KiB read of a body: every chunk would wait for a 'drain' turn.
 */
const sendHighWaterMark = 256 * 1024;

/**
 * ClamAV's daemon as the Scanner (issue 42): each scan a connection of its own, `zINSTREAM`,
 * the bytes as length-prefixed chunks written as the socket drains (a slow clamd slows the
 * upload, never fills memory), then the reply. `VERSION` names the engine and the signature
 * database; asked once per scan, since freshclam may load new signatures at any time.
 */
export class ClamdScanner implements Scanner {
  readonly maxBytes: number;
  readonly #o: ClamdScannerOptions;
  readonly #slots: ScanSlots;

  constructor(options: ClamdScannerOptions) {
    this.#o = options;
    this.maxBytes = options.maxBytes;
    this.#slots = new ScanSlots(options.concurrency);
  }

  async scan(
    bytes: AsyncIterable<Uint8Array> | NodeJS.ReadableStream,
    signal?: AbortSignal,
  ): Promise<ScanVerdict> {
    const feed = await this.open(signal);
    try {
      for await (const chunk of bytes as AsyncIterable<Uint8Array>)
        await new Promise<void>((ready) => feed.write(chunk, ready));
    } catch (error) {
      feed.abort();
      throw error;
    }
    return feed.end();
  }

  async open(signal?: AbortSignal): Promise<ScanFeed> {
    const release = await this.#slots.take(signal);
    const connection = this.#connect(signal);
    connection.send(instream);
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      connection.close();
      release();
    };
    return {
      write: (chunk, ready) => connection.sendChunk(chunk, ready),
      abort: close,
      end: async () => {
        try {
          connection.send(endOfStream);
          const reply = await connection.reply;
          connection.close();
          const { engine, signatures } = toVersion(await this.#command('zVERSION\0', signal));
          return toVerdict(reply, engine, signatures, this.#o.clock.now().toISOString());
        } finally {
          close();
        }
      },
    };
  }

  /** PING → PONG: whether clamd answers (start-up checks, tests). */
  async ping(signal?: AbortSignal): Promise<boolean> {
    return (await this.#command('zPING\0', signal).catch(() => '')) === 'PONG';
  }

  async #command(command: string, signal?: AbortSignal): Promise<string> {
    const connection = this.#connect(signal);
    try {
      connection.send(Buffer.from(command));
      return await connection.reply;
    } finally {
      connection.close();
    }
  }

  #connect(signal?: AbortSignal): ClamdConnection {
    // A Duplex option net.connect passes on, though its types do not name it.
    const options: NetConnectOpts & { highWaterMark: number } = {
      ...this.#o.address,
      highWaterMark: sendHighWaterMark,
    };
    const socket = connect(options);
    return new ClamdConnection(socket, this.#o.timeoutMs, signal);
  }
}

function toVerdict(reply: string, engine: string, signatures: string, scannedAt: string): ScanVerdict {
  const found = /^stream: (.+) FOUND$/.exec(reply);
  if (found) return { result: 'infected', signature: found[1]!, engine, signatures, scannedAt };
  if (reply === 'stream: OK') return { result: 'clean', engine, signatures, scannedAt };
  // "INSTREAM size limit exceeded. ERROR" and any other error: no verdict was reached.
  throw scannerUnavailable(new Error(`clamd answered: ${reply}`));
}

/** "ClamAV 1.4.6/27000/Sun Nov 29 09:00:00 2026" → the engine and the database's version and date. */
function toVersion(reply: string): { engine: string; signatures: string } {
  const [engine = reply, ...database] = reply.split('/');
  return { engine, signatures: database.join('/') || 'unknown' };
}

/**
 * One connection to clamd: writes that wait for the socket to drain, and the one reply (up to
 * the NUL of a z-command, or the close). Every failure — refused, reset, silent past the
 * timeout, aborted — rejects with SCANNER_UNAVAILABLE.
 */
class ClamdConnection {
  readonly reply: Promise<string>;
  /** clamd answered or the connection failed: nothing more is sent. */
  #done = false;
  /** The writer waiting for the socket to drain (writes are sequential: at most one). */
  #ready: (() => void) | undefined;
  readonly #socket: Socket;

  constructor(socket: Socket, timeoutMs: number, signal?: AbortSignal) {
    this.#socket = socket;
    socket.setTimeout(timeoutMs);
    socket.on('drain', () => this.#wake());
    this.reply = new Promise<string>((resolve, reject) => {
      const received: Buffer[] = [];
      const fail = (error: Error) => {
        this.#finish();
        reject(scannerUnavailable(error));
        socket.destroy();
      };
      const answer = () => {
        this.#finish();
        resolve(
          Buffer.concat(received)
            .toString('utf8')
            .replace(/\0[\s\S]*$/, '')
            .trim(),
        );
      };
      socket.on('data', (chunk: Buffer) => {
        received.push(chunk);
        if (chunk.includes(0)) answer();
      });
      socket.on('end', answer);
      socket.on('error', fail);
      socket.on('timeout', () => fail(new Error('clamd did not answer in time')));
      socket.on('close', () => fail(new Error('clamd closed the connection without an answer')));
      signal?.addEventListener('abort', () => fail(new Error('the scan was aborted')), { once: true });
    });
    // Read by the feed's end or #command; a rejection nobody waits for must not go unheard.
    this.reply.catch(() => {});
  }

  /** Bytes with no chunk framing (a command, INSTREAM's end); skipped once clamd answered. */
  send(bytes: Buffer): void {
    if (!this.#done) this.#socket.write(bytes);
  }

  /**
   * A body chunk as INSTREAM chunks (its length, then its bytes: one writev per chunk); `ready`
   * runs at once while the socket has room, else when it drains, fails or clamd answers (a
   * reply before the end is clamd refusing, a size limit: the rest is not sent).
   */
  sendChunk(chunk: Uint8Array, ready: () => void): void {
    if (this.#done || chunk.length === 0) {
      ready();
      return;
    }
    let room = true;
    this.#socket.cork();
    for (let at = 0; at < chunk.length; at += maxChunkBytes) {
      const part = chunk.subarray(at, at + maxChunkBytes);
      const length = Buffer.allocUnsafe(4);
      length.writeUInt32BE(part.length);
      this.#socket.write(length);
      room = this.#socket.write(part);
    }
    this.#socket.uncork();
    if (room) ready();
    else this.#ready = ready;
  }

  close(): void {
    this.#finish();
    this.#socket.destroy();
  }

  #finish(): void {
    this.#done = true;
    this.#wake();
  }

  #wake(): void {
    const ready = this.#ready;
    this.#ready = undefined;
    ready?.();
  }
}
