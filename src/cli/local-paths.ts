import { constants, existsSync } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config.ts';
import { ConfigError, toFileErrorReason } from '../config/config-error.ts';
import { privateDirectoryMode } from './private-files.ts';

/**
 * What a command needs of the local paths the settings name: `create` makes the embedded
 * stores' directories (private) when missing; `existing` wants the database already there
 * (a command that reads it must not create an empty one from a mistyped --data-dir).
 */
export type LocalPathsUse = { dataDir?: boolean; stores: 'create' | 'existing' };

/** Checks, at start, the directories and files the settings name; a problem is a ConfigError naming the setting. */
export async function prepareLocalPaths(config: Config, use: LocalPathsUse): Promise<void> {
  if (use.dataDir) await ensureDirectory(config.dataDir, `--data-dir ${config.dataDir}`);
  const database = toSqliteFile(config);
  if (database && use.stores === 'existing' && !existsSync(database))
    throw new ConfigError(`${describeDatabase(config)}: holds no database (${database} does not exist)`);
  if (database && use.stores === 'create')
    await ensureDirectory(path.dirname(database), describeDatabase(config));
  if (config.storageUrl.startsWith('file:') && use.stores === 'create') {
    const root = config.storageUrl.slice('file:'.length);
    const derived = config.storageUrl === `file:${path.join(config.dataDir, 'blobs')}`;
    await ensureDirectory(
      root,
      derived ? `--data-dir ${config.dataDir}` : `--storage-url ${config.storageUrl}`,
    );
  }
}

/** Runs a command's work once its local paths are ready. */
export async function withLocalPaths<T>(
  config: Config,
  use: LocalPathsUse,
  work: () => Promise<T>,
): Promise<T> {
  await prepareLocalPaths(config, use);
  return work();
}

/** The setting that names the metadata store, for messages: never the URL of a server (it may hold a password). */
export function describeDatabase(config: Config): string {
  if (config.databaseUrl === `sqlite:${path.join(config.dataDir, 'coffer.db')}`)
    return `--data-dir ${config.dataDir}`;
  return config.databaseUrl.startsWith('sqlite:') ? `--database-url ${config.databaseUrl}` : '--database-url';
}

/** The embedded database's file, or undefined for PostgreSQL and an in-memory SQLite. */
export function toSqliteFile(config: Config): string | undefined {
  if (!config.databaseUrl.startsWith('sqlite:') || config.databaseUrl === 'sqlite::memory:') return undefined;
  return path.resolve(config.databaseUrl.slice('sqlite:'.length));
}

async function ensureDirectory(dir: string, label: string): Promise<void> {
  // The directory is named when the label names something else (the database file's URL).
  const other = label.endsWith(` ${dir}`) ? undefined : dir;
  const info = await stat(dir).catch(() => undefined);
  if (info && !info.isDirectory())
    throw new ConfigError(`${label}: ${other ? `${other} is` : 'is'} not a directory`);
  try {
    if (!info) await mkdir(dir, { recursive: true, mode: privateDirectoryMode });
    await access(dir, constants.W_OK);
  } catch (error) {
    throw new ConfigError(`${label}: cannot create or write ${other ?? 'it'} (${toFileErrorReason(error)})`);
  }
}
