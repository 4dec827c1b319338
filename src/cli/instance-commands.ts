import { ConfigError } from '../config/config-error.ts';
import { logStartWarning } from '../config/start-log.ts';
import { migrate } from './admin-commands.ts';
import { type Command, required } from './command.ts';
import { prepareLocalPaths, withLocalPaths } from './local-paths.ts';
import { listPendingMigrations, toPendingText } from './pending-migrations.ts';
import { tightenExistingFiles } from './private-files.ts';
import { createProgress } from './progress.ts';

/**
 * `coffer serve`, `migrate`, `export`, `import`, `gc` and `scan`: the service and its stores as a
 * whole. Each loads the server, the blob stores or the scanner when it runs (`await import`), so
 * that `coffer migrate` or `coffer help serve` loads none of them.
 */
export const instanceCommands: Record<string, Command> = {
  serve: {
    summary: 'Start the service: a supervising primary and --workers server processes.',
    flags: ['host', 'port', 'public-url', 'tls-cert', 'tls-key', 'trust-proxy', 'workers', 'log-level'],
    run: async (config) => {
      await prepareLocalPaths(config, { dataDir: true, stores: 'create' });
      await tightenExistingFiles(config, logStartWarning);
      const { serve } = await import('../main.ts');
      await serve(config);
      return undefined;
    },
  },
  migrate: {
    summary:
      'Bring the database schema up to date (serve does it too); --dry-run lists the pending migrations and whether older nodes may keep serving beside each (expand) or not (contract).',
    flags: ['dry-run', 'json'],
    run: async (config, values) => {
      if (values['dry-run']) {
        const pending = await listPendingMigrations(config);
        return { json: { pending }, text: toPendingText(pending) };
      }
      await withLocalPaths(config, { stores: 'create' }, () => migrate(config));
      return { json: { migrated: true }, text: 'The database schema is up to date.' };
    },
  },
  export: {
    summary:
      'Write every project, user, key and verified file to a new directory, from one snapshot (a secret: keep it so); --verify DIR checks one.',
    flags: ['out', 'verify', 'json'],
    run: async (config, values) => {
      const progress = createProgress('export', { json: values.json === true });
      const { exportData, verifyExport } = await import('./export-import.ts');
      if (values.verify !== undefined) {
        if (values.out !== undefined) throw new ConfigError('--verify: checks an export; it takes no --out');
        const checked = await verifyExport(required(values.verify, '--verify'), progress);
        return { json: checked, text: `${values.verify}: a whole export, ${JSON.stringify(checked)}` };
      }
      const counts = await exportData(config, required(values.out, '--out'), progress);
      return { json: counts, text: `Exported ${JSON.stringify(counts)} to ${values.out}` };
    },
  },
  import: {
    summary: 'Read an export into empty stores, checking all of it first.',
    flags: ['in', 'json'],
    run: async (config, values) => {
      const progress = createProgress('import', { json: values.json === true });
      const { importData } = await import('./export-import.ts');
      const counts = await importData(config, required(values.in, '--in'), progress);
      return { json: counts, text: `Imported ${JSON.stringify(counts)} from ${values.in}` };
    },
  },
  gc: {
    summary: 'Report stray blobs (a dry run), or remove them with --apply.',
    flags: ['apply', 'json'],
    run: async (config, values) => {
      const { collectGarbage, toGcText } = await import('./gc-command.ts');
      const report = await withLocalPaths(config, { stores: 'existing' }, () =>
        collectGarbage(config, { apply: values.apply ?? false }),
      );
      return { json: report, text: toGcText(report) };
    },
  },
  scan: {
    summary:
      "Re-scan a project's stored versions (created since --since, all without it) with COFFER_SCAN_URL's scanner; a hit quarantines the file.",
    flags: ['since', 'json'],
    args: ['<project>'],
    run: async (config, values, [project]) => {
      const [{ scanProject, toScanText, toSince }, { openScanner }] = await Promise.all([
        import('./scan-command.ts'),
        import('./open-scanner.ts'),
      ]);
      const since = toSince(values.since);
      const scanner = openScanner(config);
      const progress = createProgress('scan', { json: values.json === true });
      const report = await withLocalPaths(config, { stores: 'existing' }, () =>
        scanProject(config, { project: project!, ...(since && { since }), scanner, progress }),
      );
      // A run the scanner cut short fails (exit 1) after its report: the rest is not scanned yet.
      return {
        json: report,
        text: toScanText(report),
        exitStatus: report.resumeSince === undefined ? 0 : 1,
      };
    },
  },
};
