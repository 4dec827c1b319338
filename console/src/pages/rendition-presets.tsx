import { useState } from 'preact/hooks';
import { api, type Project } from '../api.ts';
import {
  type Action,
  ActionForm,
  DataTable,
  ErrorNote,
  formValues,
  Section,
  StatusNote,
  useAction,
} from '../ui.tsx';

type Props = { project: Project; onChange: (project: Project) => void };

/** The project's named image renditions (`renditions.<name>`): the only sizes its clients may ask for in `presets` mode. */
export function RenditionPresets({ project, onChange }: Props) {
  const removing = useAction();
  const adding = useAction();
  const [saved, setSaved] = useState('');
  const presets = toPresets(project.settings.renditionPresets);
  // The same assignment as `coffer project set <p> renditions.<name>=<spec>`; null removes it.
  const assign = (action: Action, name: string, spec: string | null, done: string, afterwards?: () => void) =>
    action.run(async () => {
      const answer = await api<{ project: Project }>('PATCH', `/projects/${project.id}/settings`, {
        [`renditions.${name}`]: spec,
      });
      onChange(answer.project);
      setSaved(done);
      afterwards?.();
    });
  const add = (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const values = formValues(event);
    const name = (values.name ?? '').trim();
    const spec = (values.spec ?? '').trim();
    return assign(adding, name, spec, `Saved preset ${name}.`, () => form.reset());
  };
  return (
    <Section title="Rendition presets">
      <p class="hint">
        Named image sizes: clients ask for one with <code>GET /api/v1/file/:id?rendition=name</code>. With{' '}
        <code>renditions</code> set to <code>presets</code>, they are the only sizes served.
      </p>
      {presets.length === 0 ? (
        <p>None.</p>
      ) : (
        <DataTable headers={['Name', 'Spec', 'Actions']}>
          {presets.map(([name, spec]) => (
            <tr key={name}>
              <td>
                <code>{name}</code>
              </td>
              <td>
                <code>{spec}</code>
              </td>
              <td>
                <button
                  type="button"
                  aria-label={`Remove preset ${name}`}
                  onClick={() => assign(removing, name, null, `Removed preset ${name}.`)}
                  disabled={removing.busy}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ErrorNote error={removing.error} />
      <ActionForm action={adding} onSubmit={add} class="row">
        <label>
          Preset name <input name="name" required pattern="[a-z0-9][a-z0-9_\-]{0,31}" placeholder="thumb" />
        </label>
        <label>
          Spec <input name="spec" required placeholder="200x200,cover,webp,q80" />
        </label>
        <button type="submit" disabled={adding.busy}>
          Add preset
        </button>
      </ActionForm>
      {saved && <StatusNote text={saved} />}
    </Section>
  );
}

/** The presets as the service keeps them (name → canonical spec), in name order. */
function toPresets(value: unknown): [string, string][] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .sort(([a], [b]) => a.localeCompare(b));
}
