import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { maxFilePathBytes, toFileName, validateFilePath } from '../../src/domain/files/validate-file-path.ts';
import { isAppError } from '../../src/errors/app-error.ts';
import { anyCodeUnit, propertyParameters } from '../support/fuzz-settings.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** Characters a file name may hold: printable ASCII but the separators, and NFC letters, CJK, emoji. */
const safeCharacter = fc.oneof(
  fc.constantFrom(...'abcxyzABCXYZ0189 -_.,;:!@#$%^&()[]{}+=~\'"`<>|?*'),
  fc.constantFrom('é', 'ß', 'Å', 'ñ', 'ω', 'Ж', 'ש', 'ع', '日', '本', '한', '😀', '👍🏽', '∂', '€'),
);
const safeSegment = fc
  .string({ unit: safeCharacter, minLength: 1, maxLength: 24 })
  .filter((segment) => segment !== '.' && segment !== '..');
const safePath = fc
  .array(safeSegment, { minLength: 1, maxLength: 8 })
  .map((segments) => segments.join('/'))
  .filter((filePath) => Buffer.byteLength(filePath) <= maxFilePathBytes);

/** One character of each forbidden family: controls, bidi, invisible, fillers, BOM, specials. */
const forbiddenCharacter = fc.constantFrom(
  '\u0000',
  '\u0009',
  '\u000a',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u009f',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u061c',
  '\u200e',
  '\u200f',
  '\u00ad',
  '\u115f',
  '\u1160',
  '\u180e',
  '\u200b',
  '\u200d',
  '\u2060',
  '\u2065',
  '\u206a',
  '\u206f',
  '\u3164',
  '\ufe00',
  '\ufe0f',
  '\ufeff',
  '\uffa0',
  '\ufff0',
  '\ufff8',
);

/** Ways to break a valid path, each a feature the rules forbid. */
const breakPath: Record<string, fc.Arbitrary<(filePath: string) => string>> = {
  'leading /': fc.constant((p) => `/${p}`),
  backslash: fc.nat().map((at) => (p) => insertAt(p, at, '\\')),
  'empty segment': fc.nat().map(
    (at) => (p) =>
      `${p
        .split('/')
        .toSpliced(at % 2, 0, '')
        .join('/')}`,
  ),
  'trailing /': fc.constant((p) => `${p}/`),
  'dot segment': fc.tuple(fc.constantFrom('.', '..'), fc.nat()).map(
    ([dot, at]) =>
      (p) =>
        p
          .split('/')
          .toSpliced(at % (p.split('/').length + 1), 0, dot)
          .join('/'),
  ),
  'forbidden character': fc.tuple(forbiddenCharacter, fc.nat()).map(
    ([character, at]) =>
      (p) =>
        insertAt(p, at, character),
  ),
  'not NFC': fc
    .tuple(fc.constantFrom('e\u0301', 'A\u030a', 'n\u0303', '\u212b', '\u0041\u0308'), fc.nat())
    .map(
      ([decomposed, at]) =>
        (p) =>
          insertAt(p, at, decomposed),
    ),
  'unpaired surrogate': fc.tuple(fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff'), fc.nat()).map(
    ([surrogate, at]) =>
      (p) =>
        insertAt(p, at, surrogate),
  ),
  'too long': fc.constant((p) => `${p}/${'x'.repeat(maxFilePathBytes)}`),
};

function insertAt(text: string, at: number, insert: string): string {
  // Insert between code points, never inside a surrogate pair (that would be another feature).
  const characters = [...text];
  const index = at % (characters.length + 1);
  return [...characters.slice(0, index), insert, ...characters.slice(index)].join('');
}

function refusal(filePath: string): string | undefined {
  try {
    validateFilePath(filePath);
    return undefined;
  } catch (error) {
    assert.ok(isAppError(error), `a refusal is an AppError, not ${error}`);
    assert.equal(error.code, 'INVALID_FILE_PATH');
    assert.equal(error.statusCode, 400);
    return error.message;
  }
}

describe('filePath validation (property)', () => {
  it('anything accepted is NFC, relative, within limits, never escapes, and comes back unchanged', () => {
    const anyString = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.string({ unit: anyCodeUnit, maxLength: 40 }),
      fc
        .array(fc.oneof(safeSegment, fc.constantFrom('.', '..', '', ' ', '\\', '~')), { maxLength: 6 })
        .map((s) => s.join('/')),
      safePath,
    );
    fc.assert(
      fc.property(anyString, (filePath) => {
        if (refusal(filePath) !== undefined) return;
        assert.equal(validateFilePath(filePath), filePath);
        assert.ok(filePath.isWellFormed());
        assert.equal(filePath.normalize('NFC'), filePath);
        const bytes = Buffer.byteLength(filePath);
        assert.ok(bytes >= 1 && bytes <= maxFilePathBytes);
        assert.ok(!filePath.startsWith('/') && !filePath.includes('\\'));
        // Never escapes: resolved under any root it stays strictly inside it, and it is its own
        // normal form (no segment that a path library would fold away).
        assert.ok(path.posix.resolve('/root', filePath).startsWith('/root/'));
        assert.equal(path.posix.normalize(filePath), filePath);
        // Round-trips: through JSON, and the file name is its last segment.
        assert.equal(JSON.parse(JSON.stringify({ filePath })).filePath, filePath);
        assert.equal(
          `${filePath.slice(0, filePath.length - toFileName(filePath).length)}${toFileName(filePath)}`,
          filePath,
        );
        assert.ok(!toFileName(filePath).includes('/') && toFileName(filePath) !== '');
      }),
      propertyParameters('filePath: accepted paths', 3000),
    );
  });

  it('every path of safe names is accepted', () => {
    fc.assert(
      fc.property(safePath, (filePath) => {
        assert.equal(refusal(filePath), undefined, JSON.stringify(filePath));
      }),
      propertyParameters('filePath: safe paths', 1000),
    );
  });

  for (const [feature, breaker] of Object.entries(breakPath)) {
    it(`a path with a forbidden feature is refused: ${feature}`, () => {
      fc.assert(
        fc.property(safePath, breaker, (valid, broken) => {
          const filePath = broken(valid);
          assert.notEqual(refusal(filePath), undefined, `accepted ${JSON.stringify(filePath)}`);
        }),
        propertyParameters(`filePath: ${feature}`, 300),
      );
    });
  }
});

describe('filePath over HTTP (property)', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = (await server.client.signup()).token;
  });
  after(() => server.stop());

  it('the API accepts exactly what the rule accepts, and answers the path unchanged', async () => {
    const candidate = fc.oneof(
      safePath,
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
      fc.tuple(safePath, fc.oneof(...Object.values(breakPath))).map(([valid, broken]) => broken(valid)),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(candidate, async (filePath) => {
        // Each run gets its own folder, so a path accepted twice is never FILE_EXISTS.
        const unique = `r${run++}/${filePath}`;
        const expected = refusal(unique);
        const response = await server.client.call('POST', '/api/v1/file', {
          token,
          body: { filePath: unique },
        });
        if (expected === undefined) {
          assert.equal(response.status, 200, `${JSON.stringify(unique)}: ${response.text}`);
          const record = await server.services.repositories.files.findById(response.body.fileId);
          assert.equal(record?.filePath, unique);
        } else {
          assert.equal(response.status, 400, `${JSON.stringify(unique)}: ${response.text}`);
          assert.equal(response.body.code, 'INVALID_FILE_PATH');
        }
      }),
      propertyParameters('filePath over HTTP', 150),
    );
  });
});
