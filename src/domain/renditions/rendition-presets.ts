import { validationFailed } from '../../errors/errors.ts';
import { parseCanonicalSpec, parsePreset, type RenditionSpec, toCanonicalSpec } from './rendition-spec.ts';

/** A project's named renditions: preset name → canonical spec (rendition-spec.ts). */
export type PresetTable = Readonly<Record<string, string>>;

const presetNamePattern = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const settingPrefix = 'renditions.';
/** Enough for every size a page needs; a table is read with every rendition request. */
export const maxPresets = 32;

/** Whether a project setting's name names a preset (`renditions.<name>`). */
export function isPresetName(settingName: string): boolean {
  return settingName.startsWith(settingPrefix);
}

/** `renditions.<name>=<spec>` sets a preset, `renditions.<name>=` removes it. */
export function assignPreset(table: PresetTable, settingName: string, text: string): PresetTable {
  const name = settingName.slice(settingPrefix.length);
  if (!presetNamePattern.test(name))
    throw validationFailed(
      `${settingName}: a preset name is 1–32 of a-z, 0-9, _ and -, starting with a letter or digit`,
    );
  const next: Record<string, string> = { ...table };
  if (text === '') {
    delete next[name];
    return next;
  }
  next[name] = toCanonicalSpec(parsePreset(text, settingName));
  if (Object.keys(next).length > maxPresets)
    throw validationFailed(`a project holds at most ${maxPresets} rendition presets`);
  return next;
}

/** The spec of a preset; undefined when the project has none of that name. */
export function findPreset(table: PresetTable, name: string): RenditionSpec | undefined {
  const canonical = Object.hasOwn(table, name) ? table[name] : undefined;
  return canonical === undefined ? undefined : parseCanonicalSpec(canonical);
}

export function isPresetTable(value: unknown): value is PresetTable {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return (
    entries.length <= maxPresets &&
    entries.every(
      ([name, spec]) =>
        presetNamePattern.test(name) && typeof spec === 'string' && parseCanonicalSpec(spec) !== undefined,
    )
  );
}
