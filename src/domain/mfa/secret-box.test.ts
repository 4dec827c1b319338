import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { SecretBox } from './secret-box.ts';

describe('SecretBox (AES-256-GCM under keys outside the database)', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  it('opens what it sealed; the sealed text shows nothing of the secret and differs each time', async () => {
    const box = new SecretBox(async () => [oldKey]);
    const sealed = await box.seal('JBSWY3DPEHPK3PXP');
    assert.doesNotMatch(sealed, /JBSWY3DPEHPK3PXP/);
    assert.notEqual(sealed, await box.seal('JBSWY3DPEHPK3PXP'));
    assert.deepEqual(await box.open(sealed), { plain: 'JBSWY3DPEHPK3PXP', stale: false });
  });

  it('after a rotation the old key still opens (stale: seal again) and the new one seals', async () => {
    const before = await new SecretBox(async () => [oldKey]).seal('secret');
    const rotated = new SecretBox(async () => [newKey, oldKey]);
    assert.deepEqual(await rotated.open(before), { plain: 'secret', stale: true });
    assert.deepEqual(await rotated.open(await rotated.seal('secret')), { plain: 'secret', stale: false });
    await assert.rejects(new SecretBox(async () => [newKey]).open(before), /no key opens/);
  });

  it('refuses an altered value', async () => {
    const box = new SecretBox(async () => [oldKey]);
    const sealed = await box.seal('secret');
    const body = sealed.split('.')[3]!;
    const flipped = (body[0] === 'A' ? 'B' : 'A') + body.slice(1);
    await assert.rejects(box.open(sealed.replace(body, flipped)));
  });
});
