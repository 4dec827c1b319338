import { useEffect, useState } from 'preact/hooks';
import { api, type Project } from '../api.ts';
import { ActionForm, Section, StatusNote, useAction } from '../ui.tsx';
import { type DraftValue, SettingField, toDraft, toPatchValue } from './setting-field.tsx';

type Props = { project: Project; onChange: (project: Project) => void };

/**
 * Every setting `coffer project set` takes, each with the control of its type, showing the
 * value in force. Saving sends only what changed, with the same checks as the CLI (all or
 * none applies). Settings kept as a table (the rendition presets, the mail templates) are set
 * one entry at a time elsewhere.
 */
export function ProjectSettings({ project, onChange }: Props) {
  const fields = project.settingsSchema.filter((setting) => setting.kind !== 'table');
  const savedDrafts = () =>
    Object.fromEntries(
      fields.map((setting) => [setting.name, toDraft(setting, project.settings[setting.name])]),
    );
  const [drafts, setDrafts] = useState<Record<string, DraftValue>>(savedDrafts);
  const [saved, setSaved] = useState('');
  const save = useAction();
  // A saved change (here, or of the origins, which answer the project too) starts from the service's values.
  useEffect(() => setDrafts(savedDrafts()), [JSON.stringify(project.settings)]);
  const changed = fields.filter(
    (setting) => drafts[setting.name] !== toDraft(setting, project.settings[setting.name]),
  );
  const edit = (name: string, draft: DraftValue) => {
    setSaved('');
    setDrafts((before) => ({ ...before, [name]: draft }));
  };
  const submit = (event: Event) => {
    event.preventDefault();
    return save.run(async () => {
      if (changed.length === 0) return setSaved('Nothing changed.');
      const body = Object.fromEntries(
        changed.map((setting) => [setting.name, toPatchValue(setting, drafts[setting.name]!)]),
      );
      const answer = await api<{ project: Project }>('PATCH', `/projects/${project.id}/settings`, body);
      onChange(answer.project);
      setSaved(`Saved ${changed.map((setting) => setting.name).join(', ')}.`);
    });
  };
  return (
    <Section title="Settings">
      <p class="hint">
        The values in force; <span class="badge">default</span> marks a default. Nothing applies until saved.
      </p>
      <ActionForm action={save} onSubmit={submit} class="settings" aria-label="Settings">
        {fields.map((setting) => (
          <SettingField
            key={setting.name}
            setting={setting}
            saved={project.settings[setting.name]}
            draft={drafts[setting.name] ?? toDraft(setting, project.settings[setting.name])}
            onDraft={(draft) => edit(setting.name, draft)}
          />
        ))}
        <div class="row">
          <button type="submit" disabled={save.busy}>
            Save settings
          </button>
          {saved && <StatusNote text={saved} />}
        </div>
      </ActionForm>
    </Section>
  );
}
