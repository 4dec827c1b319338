import { api, type Project, type User } from './api.ts';

/** A file to upload, at its own name unless a path is given. */
export type Upload = { file: File; filePath?: string };

/**
 * Uploads files into a user's files (the user found by email) as their own upload would go:
 * request the upload (their limits, quotas and allowed types apply), PUT the bytes to the
 * signed link, verify. One after the other; the first failure stops the rest, naming its file.
 */
export async function uploadFiles(project: Project, ownerEmail: string, uploads: Upload[]): Promise<User> {
  const found = await api<{ users: User[] }>(
    'GET',
    `/projects/${project.id}/users?email=${encodeURIComponent(ownerEmail)}`,
  );
  const owner = found.users[0];
  if (!owner) throw new Error(`No user ${ownerEmail} in this project`);
  for (const upload of uploads) {
    const filePath = upload.filePath || upload.file.name;
    try {
      await uploadOne(project, owner, { ...upload, filePath });
    } catch (error) {
      if (uploads.length === 1) throw error;
      throw new Error(`${filePath}: ${error instanceof Error ? error.message : 'the upload failed'}`);
    }
  }
  return owner;
}

async function uploadOne(project: Project, owner: User, { file, filePath }: Required<Upload>): Promise<void> {
  const contentType = file.type || 'application/octet-stream';
  const requested = await api<{ fileId: string; putFileUrl: string }>(
    'POST',
    `/projects/${project.id}/files`,
    {
      ownerId: owner.userId,
      filePath,
      contentType,
      contentLength: file.size,
    },
  );
  const put = await fetch(requested.putFileUrl, {
    method: 'PUT',
    body: file,
    headers: { 'content-type': contentType },
  });
  if (!put.ok)
    throw new Error(
      `The upload failed (${put.status}): ${(await put.json().catch(() => ({}))).message ?? ''}`,
    );
  await api('POST', `/projects/${project.id}/files/${requested.fileId}/verify`, {
    etag: put.headers.get('etag'),
  });
}
