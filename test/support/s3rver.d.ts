// Just what test/support/s3-server.ts uses of @20minutes/s3rver (a CommonJS Koa app without types).
declare module '@20minutes/s3rver' {
  import type { IncomingMessage } from 'node:http';
  import type { AddressInfo } from 'node:net';

  namespace S3rver {
    type Context = {
      req: IncomingMessage;
      method: string;
      path: string;
      query: Record<string, string | string[] | undefined>;
      status: number;
      type: string;
      body: unknown;
      length: number;
      /** A request header. */
      get(name: string): string;
      /** Sets a response header. */
      set(name: string, value: string): void;
      response: { get(name: string): string };
    };
    type Middleware = (ctx: Context, next: () => Promise<void>) => unknown;
    type Options = {
      address?: string;
      port?: number;
      silent?: boolean;
      directory?: string;
      allowMismatchedSignatures?: boolean;
      configureBuckets?: { name: string; configs?: string[] }[];
    };
  }

  class S3rver {
    constructor(options: S3rver.Options);
    /** Koa's middleware list, composed when the server starts listening. */
    middleware: S3rver.Middleware[];
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }

  export = S3rver;
}
