import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './console-browser.ts';

const bundlePath = path.resolve(
  import.meta.dirname,
  '../../node_modules/@simplewebauthn/browser/dist/bundle/index.umd.min.js',
);

/**
 * An app's page on `http://localhost:<port>` (a secure context whose host is a valid RP ID):
 * it loads the stock @simplewebauthn/browser bundle, as an app would, and nothing else.
 */
export async function startAppPage(): Promise<{ origin: string; close(): Promise<void> }> {
  const bundle = await readFile(bundlePath);
  const server = http.createServer((request, response) => {
    if (request.url === '/simplewebauthn-browser.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>app</title><script src="/simplewebauthn-browser.js"></script>');
  });
  server.on('error', () => {});
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://localhost:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Chromium with a CDP virtual authenticator (WebAuthn domain): a platform authenticator
 * (CTAP2, internal transport) that keeps resident keys and verifies its user without a prompt.
 * It belongs to the one page, across navigations: the same credentials sign on any origin.
 */
export class PasskeyBrowser {
  readonly #browser: Browser;
  readonly #page: Page;

  private constructor(browser: Browser, page: Page) {
    this.#browser = browser;
    this.#page = page;
  }

  static async launch(): Promise<PasskeyBrowser> {
    const browser = await launchChromium();
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return new PasskeyBrowser(browser, page);
  }

  /** The page, showing the app of `origin` (navigated there when it shows another). */
  async #at(origin: string): Promise<Page> {
    if (new URL(this.#page.url()).origin !== origin) {
      await this.#page.goto(`${origin}/`);
      await this.#page.waitForFunction(() => 'SimpleWebAuthnBrowser' in globalThis);
    }
    return this.#page;
  }

  /** startRegistration of @simplewebauthn/browser on the app of `origin`: the RegistrationResponseJSON. */
  async register(origin: string, optionsJSON: unknown): Promise<Record<string, unknown>> {
    const page = await this.#at(origin);
    return page.evaluate(
      (options) =>
        // biome-ignore lint/suspicious/noExplicitAny: the bundle's global, in the page
        (globalThis as any).SimpleWebAuthnBrowser.startRegistration({ optionsJSON: options }),
      optionsJSON,
    );
  }

  /** startAuthentication on the app of `origin`: the AuthenticationResponseJSON. */
  async authenticate(origin: string, optionsJSON: unknown): Promise<Record<string, unknown>> {
    const page = await this.#at(origin);
    return page.evaluate(
      (options) =>
        // biome-ignore lint/suspicious/noExplicitAny: the bundle's global, in the page
        (globalThis as any).SimpleWebAuthnBrowser.startAuthentication({ optionsJSON: options }),
      optionsJSON,
    );
  }

  /** The browser itself, for other pages (the console). */
  get browser(): Browser {
    return this.#browser;
  }

  close(): Promise<void> {
    return this.#browser.close();
  }
}
