import { useState } from 'preact/hooks';
import type { Project } from '../api.ts';
import { ActionForm, formValues, Section, StatusNote, useAction } from '../ui.tsx';
import { uploadFiles } from '../upload-file.ts';

type Props = {
  project: Project;
  /** The owner's email, kept by the page: files dropped on the list are theirs too. */
  owner: string;
  onOwner: (owner: string) => void;
  onUploaded: () => void;
};

/** Uploads a file into a user's files (found by email), as their own upload would go. */
export function UploadForm({ project, owner, onOwner, onUploaded }: Props) {
  const action = useAction();
  const [done, setDone] = useState('');
  const submit = (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const { filePath } = formValues(event);
    const file = (form.elements.namedItem('file') as HTMLInputElement).files?.[0];
    return action.run(async () => {
      if (!file) throw new Error('Choose a file to upload');
      const user = await uploadFiles(project, owner, [{ file, filePath }]);
      setDone(`Uploaded ${filePath || file.name} for ${user.email}.`);
      // The owner stays, for the next file.
      for (const name of ['file', 'filePath']) (form.elements.namedItem(name) as HTMLInputElement).value = '';
      onUploaded();
    });
  };
  return (
    <Section title="Upload">
      <ActionForm action={action} onSubmit={submit} class="grid-form">
        <label>
          Owner email{' '}
          <input
            name="owner"
            type="email"
            required
            value={owner}
            onInput={(event) => onOwner(event.currentTarget.value)}
          />
        </label>
        <label>
          File <input name="file" type="file" required />
        </label>
        <label>
          Path (optional: the file's name) <input name="filePath" placeholder="folder/name.ext" />
        </label>
        <button type="submit" disabled={action.busy}>
          Upload file
        </button>
      </ActionForm>
      {done && <StatusNote text={done} />}
      <p class="hint">
        Or drop files on the list below: they are uploaded for this owner, at their own names.
      </p>
    </Section>
  );
}
