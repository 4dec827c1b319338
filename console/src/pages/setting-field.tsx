import { formatBytes, type SettingSchema } from '../api.ts';

/** What a setting's control holds: a flag's state, or the text of any other field. */
export type DraftValue = string | boolean;

/** The value as its control shows it: a list comma-separated, none as an empty field. */
export function toDraft(setting: SettingSchema, value: unknown): DraftValue {
  if (setting.kind === 'flag') return value === true;
  if (Array.isArray(value)) return value.join(', ');
  return value === null || value === undefined ? '' : String(value);
}

/**
 * The field as PATCH …/settings takes it (the text `coffer project set` parses): an empty
 * number field is none, an empty text or list field restores the default.
 */
export function toPatchValue(setting: SettingSchema, draft: DraftValue): string | number | boolean | null {
  if (typeof draft === 'boolean') return draft;
  const text = draft.trim();
  if (setting.kind === 'number') return text === '' ? 'none' : Number(text);
  return text === '' ? null : text;
}

/** A value in words: none, empty, on/off, a size in KiB/MiB/GiB. */
export function describeValue(setting: SettingSchema, value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (Array.isArray(value)) return value.length === 0 ? 'empty' : value.join(', ');
  if (setting.kind === 'number' && setting.unit === 'bytes') return formatBytes(Number(value));
  return String(value);
}

/** The help line, without the choices at its head where the control already offers them. */
function helpOf(setting: SettingSchema): string {
  if (setting.kind !== 'flag' && setting.kind !== 'choice') return setting.description;
  return setting.description.replace(/^[\w-]+(?: \| [\w-]+)+: /, '');
}

type Props = {
  setting: SettingSchema;
  /** The value in force (saved). */
  saved: unknown;
  draft: DraftValue;
  onDraft: (draft: DraftValue) => void;
};

/**
 * One setting: the control that fits its type, showing the value in force (the default when
 * none was set), whether that is the default, and a button back to the default.
 */
export function SettingField({ setting, saved, draft, onDraft }: Props) {
  const id = `setting-${setting.name}`;
  const defaultDraft = toDraft(setting, setting.default);
  const unsaved = draft !== toDraft(setting, saved);
  return (
    <div class="setting">
      <label for={id}>
        <code>{setting.name}</code>
      </label>
      <div class="setting-value">
        <SettingControl setting={setting} id={id} draft={draft} onDraft={onDraft} />
        {draft === defaultDraft ? (
          <span class="badge">default</span>
        ) : (
          <button
            type="button"
            class="secondary"
            aria-label={`Use the default of ${setting.name} (${describeValue(setting, setting.default)})`}
            onClick={() => onDraft(defaultDraft)}
          >
            Use default: {describeValue(setting, setting.default)}
          </button>
        )}
        {unsaved && <span class="badge unsaved">not saved</span>}
      </div>
      <p class="hint" id={`${id}-hint`}>
        {helpOf(setting)}
      </p>
    </div>
  );
}

type ControlProps = Pick<Props, 'setting' | 'draft' | 'onDraft'> & { id: string };

function SettingControl({ setting, id, draft, onDraft }: ControlProps) {
  const common = { id, name: setting.name, 'aria-describedby': `${id}-hint` };
  const text = typeof draft === 'string' ? draft : '';
  const typed = (event: Event) => onDraft((event.currentTarget as HTMLInputElement).value);
  if (setting.kind === 'flag')
    return (
      <input
        {...common}
        type="checkbox"
        checked={draft === true}
        onChange={(event) => onDraft(event.currentTarget.checked)}
      />
    );
  if (setting.kind === 'choice')
    return (
      <select {...common} value={text} onChange={typed}>
        {setting.choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    );
  if (setting.kind === 'number')
    return (
      <span class="number-field">
        <input
          {...common}
          type="number"
          inputMode="numeric"
          step={1}
          min={setting.min}
          max={setting.max}
          required={!setting.nullable}
          placeholder={setting.nullable ? 'none' : undefined}
          value={text}
          onInput={typed}
        />
        <span class="hint">
          {setting.unit === 'count' ? '' : setting.unit}
          {setting.unit === 'bytes' && text !== '' && ` (${formatBytes(Number(text))})`}
        </span>
      </span>
    );
  return (
    <input
      {...common}
      value={text}
      placeholder={setting.kind === 'list' ? 'comma-separated' : 'none'}
      onInput={typed}
    />
  );
}
