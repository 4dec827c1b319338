import assert from 'node:assert/strict';
import { globSync } from 'node:fs';
import { it } from 'node:test';
import { settings } from './settings.ts';

// The table is spread together from one module per area: a name defined in two areas would
// silently keep the later one, and an area left out of the table would never be read.
it('every area module of settings/ is in the table, and no setting is named twice', async () => {
  const areaNames: string[] = [];
  for (const file of globSync('settings/*-settings.ts', { cwd: import.meta.dirname })) {
    const module: Record<string, object> = await import(`./${file}`);
    for (const area of Object.values(module)) areaNames.push(...Object.keys(area));
  }
  assert.deepEqual([...areaNames].sort(), Object.keys(settings).sort());
});
