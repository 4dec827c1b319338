import path from 'node:path';
import type { Config } from '../config/config.ts';

/**
 * What a first start says in plain words, whatever the log level (but `silent`): where the
 * service is, its reference, where the credentials went, and what to try next. Never a secret:
 * the credentials stay in their 0600 file.
 */
export function firstStartGuide(config: Config, publicUrl: string) {
  const credentialsFile = path.resolve(config.dataDir, 'default-project.json');
  const dataDirFlag = config.dataDir === './data' ? '' : ` --data-dir ${config.dataDir}`;
  return {
    url: publicUrl,
    docsUrl: `${publicUrl}/docs`,
    credentialsFile,
    next: `npx coffer project show default${dataDirFlag}`,
  };
}

export type FirstStartGuide = ReturnType<typeof firstStartGuide>;

/** The guide as lines for a terminal. */
export function toGuideText(guide: FirstStartGuide): string {
  return [
    '',
    `Coffer is ready at ${guide.url}`,
    `  API reference:    ${guide.docsUrl}`,
    `  App credentials:  ${guide.credentialsFile} (project "default"; keep this file private)`,
    `  Try next:         ${guide.next}`,
    '',
  ].join('\n');
}

/** The guide as one JSON log line (pino's shape, level info) for log collectors. */
export function toGuideRecord(guide: FirstStartGuide): string {
  const msg = `Coffer is ready at ${guide.url}; API reference at ${guide.docsUrl}; app credentials in ${guide.credentialsFile}; try next: ${guide.next}`;
  return JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, ...guide, msg });
}
