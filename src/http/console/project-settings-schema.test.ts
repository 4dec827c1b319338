import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  defaultProjectSettings,
  projectSettingDefinitions,
  projectSettingNames,
} from '../../domain/identity/project-settings.ts';
import { choicesOf, toSettingsSchema } from './project-settings-schema.ts';

// The console's controls must take exactly what the domain takes: these checks hold the
// schema to each setting's own parser and isValid, so a changed rule shows here.
describe('the console settings schema', () => {
  const schema = toSettingsSchema({ adminRole: 'staff' });

  it('lists every setting once, in the domain order, with the domain default', () => {
    assert.deepEqual(
      schema.map((setting) => setting.name),
      projectSettingNames,
    );
    for (const setting of schema) {
      const expected = setting.name === 'adminRoles' ? ['staff'] : defaultProjectSettings[setting.name];
      assert.deepEqual(setting.default, expected, setting.name);
      assert.ok(projectSettingDefinitions[setting.name].isValid(setting.default), setting.name);
    }
  });

  it('offers only choices the setting parses, and at least two', () => {
    for (const setting of schema.filter((candidate) => candidate.kind === 'choice')) {
      const definition = projectSettingDefinitions[setting.name];
      assert.ok((setting.choices ?? []).length >= 2, `${setting.name} names its choices`);
      for (const choice of setting.choices ?? []) {
        const value = definition.parse(choice, setting.name);
        assert.ok(definition.isValid(value), `${setting.name}=${choice}`);
      }
    }
  });

  it('gives flags and numbers the bounds their parsers keep', () => {
    for (const setting of schema) {
      const definition = projectSettingDefinitions[setting.name];
      if (setting.kind === 'flag') assert.equal(typeof setting.default, 'boolean', setting.name);
      if (setting.kind !== 'number') continue;
      assert.ok(definition.isValid(setting.min) && definition.isValid(setting.max), setting.name);
      assert.ok(!definition.isValid(setting.min - 1), `${setting.name} below ${setting.min}`);
      if (setting.max < Number.MAX_SAFE_INTEGER)
        assert.ok(!definition.isValid(setting.max + 1), `${setting.name} above ${setting.max}`);
      assert.equal(definition.parse(String(setting.min), setting.name), setting.min, setting.name);
      assert.equal(setting.nullable, definition.isValid(null), setting.name);
      if (setting.nullable) assert.equal(definition.parse('none', setting.name), null, setting.name);
    }
  });

  it('reads the choices at the head of a help line, and none from any other line', () => {
    assert.deepEqual(choicesOf('any | presets | off: whether…'), ['any', 'presets', 'off']);
    assert.deepEqual(choicesOf('the largest file an upload may hold: bytes'), []);
  });
});
