/**
 * A second process on one SQLite file, as the `coffer` CLI or a cluster worker would be.
 *   node sqlite-writer-process.ts migrate <databaseUrl>
 *   node sqlite-writer-process.ts share <databaseUrl> <fileId> <identifierPrefix> <count>
 * Exits 0 when every write succeeded, otherwise prints the error and exits 1.
 */
import { migrateToLatest } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { openDatabase } from '../../src/persistence/open-database.ts';
import { createRepositories } from '../../src/persistence/repositories/create-repositories.ts';

const [command, databaseUrl, fileId, prefix, count] = process.argv.slice(2);
const database = await openDatabase({ databaseUrl: databaseUrl ?? '' });
try {
  if (command === 'migrate') {
    await migrateToLatest(database.db);
  } else if (command === 'share') {
    const { files } = createRepositories(database.db);
    for (let i = 0; i < Number(count); i++) {
      const updated = await files.addAclEntry(
        fileId ?? '',
        { scope: 'user', identifier: `${prefix}-${i}` },
        new Date(),
      );
      if (updated === undefined) throw new Error(`file ${fileId} not found`);
    }
  } else {
    throw new Error(`unknown command ${command}`);
  }
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await database.close();
}
