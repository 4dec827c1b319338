import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { CofferServer } from '../processes/coffer-server.ts';

type ShareSeed = {
  projectId: string;
  granteeId: string;
  granteeRole: string;
  /** Owners whose files and folders are shared with the grantee (never the grantee). */
  ownerPrefix: string;
  files: number;
  folders: number;
};

/**
 * Shares `files` files and `folders` folders of other owners with one user (a quarter of them
 * by the user's role), straight into the server's database: file_acl entries past the
 * creator's own and folder_shares rows, their times spread over a day and interleaved, as
 * years of sharing would leave them. Folders beyond those the owners have get made-up paths
 * (a share of a folder without files, which the list shows with 0).
 */
export async function seedShares(server: CofferServer, seed: ShareSeed): Promise<void> {
  const now = Date.now();
  const timeOf = (i: number) => now - Math.floor(((i * 7919) % 86_400) * 1000 + (i % 1000));
  const scopeOf = (i: number) => (i % 4 === 0 ? ['role', seed.granteeRole] : ['user', seed.granteeId]);
  const fileSql = `select id, created_at from files where project_id = $1 and creator_id like $2 order by id limit ${seed.files}`;
  const folderSql = `select owner_id, path from folders where project_id = $1 and owner_id like $2 order by owner_id, path limit ${seed.folders}`;
  const fileRow = (file: { id: string; created_at: number | string }, i: number) => {
    const [scope, identifier] = scopeOf(i);
    return [file.id, scope, identifier, 1, seed.projectId, Number(file.created_at), timeOf(2 * i)];
  };
  const folderRows = (found: Array<{ owner_id: string; path: string }>) =>
    Array.from({ length: seed.folders }, (_, i) => {
      const folder = found[i] ?? { owner_id: `${seed.ownerPrefix}0`, path: `shared-${i}/` };
      const [scope, identifier] = scopeOf(i);
      return [seed.projectId, folder.owner_id, folder.path, scope, identifier, timeOf(2 * i + 1)];
    });
  const like = `${seed.ownerPrefix}%`;
  const fileInsert =
    'insert into file_acl (file_id, scope, identifier, position, project_id, file_created_at, shared_at) values';
  const folderInsert =
    'insert into folder_shares (project_id, owner_id, path, scope, identifier, shared_at) values';
  if (!server.databaseUrl) {
    const db = new DatabaseSync(path.join(server.dataDir, 'coffer.db'));
    try {
      db.exec('pragma busy_timeout = 30000');
      const files = db.prepare(fileSql.replaceAll(/\$\d/g, '?')).all(seed.projectId, like) as never[];
      const folders = db.prepare(folderSql.replaceAll(/\$\d/g, '?')).all(seed.projectId, like) as never[];
      const addFile = db.prepare(`${fileInsert} (?, ?, ?, ?, ?, ?, ?)`);
      const addFolder = db.prepare(`${folderInsert} (?, ?, ?, ?, ?, ?)`);
      db.exec('begin immediate');
      for (const [i, file] of files.entries()) addFile.run(...(fileRow(file, i) as never[]));
      for (const row of folderRows(folders)) addFolder.run(...(row as never[]));
      db.exec('commit');
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    const files = (await client.query(fileSql, [seed.projectId, like])).rows;
    const folders = (await client.query(folderSql, [seed.projectId, like])).rows;
    await client.query('begin');
    await insertMany(client, fileInsert, files.map(fileRow));
    await insertMany(client, folderInsert, folderRows(folders));
    await client.query('commit');
    await client.query('analyze file_acl');
    await client.query('analyze folder_shares');
  } finally {
    await client.end();
  }
}

/** Rows in statements of 1,000 (under PostgreSQL's bound-parameter limit). */
async function insertMany(client: pg.Client, insert: string, rows: unknown[][]): Promise<void> {
  for (let start = 0; start < rows.length; start += 1000) {
    const chunk = rows.slice(start, start + 1000);
    const width = chunk[0]?.length ?? 0;
    const values = chunk.map(
      (_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`,
    );
    await client.query(`${insert} ${values.join(', ')}`, chunk.flat());
  }
}
