import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId } from '../../src/domain/ids.ts';
import type { RenditionRefusal } from '../../src/domain/renditions/rendition-repository.ts';
import { newFile, newProjectId, type RepositoryFixture, T0 } from './repository-fixtures.ts';

/** Refused sources (issue 35): one per file version, the first one kept, gone with their file. */
export function runRenditionRefusalContract(fixture: RepositoryFixture): void {
  describe('RenditionRepository refusals', () => {
    const refusalOf = (
      fileId: string,
      sourceVersion: string,
      message: string,
      limits = 'a',
    ): RenditionRefusal => ({
      fileId,
      sourceVersion,
      code: 'IMAGE_TOO_LARGE',
      message,
      limits,
      createdAt: T0,
    });

    it('records one refusal per file version, the latest decision, and drops them with the file', async () => {
      const { renditions, files } = fixture.repos;
      const { file } = await files.create(newFile(await newProjectId(fixture.repos)), T0);
      assert.equal(await renditions.findRefusal(file.id, 'v1'), undefined);
      await renditions.insertRefusal(refusalOf(file.id, 'v1', 'first'));
      assert.deepEqual(await renditions.findRefusal(file.id, 'v1'), refusalOf(file.id, 'v1', 'first'));
      // Decided again under other limits (an operator changed them): the new decision counts.
      await renditions.insertRefusal(refusalOf(file.id, 'v1', 'second', 'b'));
      assert.deepEqual(await renditions.findRefusal(file.id, 'v1'), refusalOf(file.id, 'v1', 'second', 'b'));
      // Another version of the same file is decided on its own.
      assert.equal(await renditions.findRefusal(file.id, 'v2'), undefined);
      assert.equal(await files.delete(file.id), true);
      assert.equal(await renditions.findRefusal(file.id, 'v1'), undefined);
      // A file deleted while its source was being refused: nothing is recorded, nothing fails.
      await renditions.insertRefusal(refusalOf(newId(), 'v1', 'late'));
    });
  });
}
