import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Shell scripts standing in for a media tool (issue 39): one that sleeps past any limit, one
 * that dies, one that writes what it was given. The tool runner must end each as the rules say.
 * Scripts get no environment from the runner, so what they record goes to a path written in.
 */
export class FakeMediaTools {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'coffer-fake-tools-'));

  /** A script running `body` under /bin/sh; its path. */
  script(name: string, body: string): string {
    const file = path.join(this.dir, name);
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  }

  /** A file in the tools' folder, for a script to write into. */
  file(name: string): string {
    return path.join(this.dir, name);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
