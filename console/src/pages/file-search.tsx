import type { Action } from '../ui.tsx';
import { ActionForm, formValues } from '../ui.tsx';

/** A search of the project's files: a part of the name, a type (exact or `image/*`). */
export type SearchTerms = { name?: string; contentType?: string };

type Props = {
  action: Action;
  terms: SearchTerms;
  onSearch: (terms: SearchTerms) => Promise<void>;
  onClear: () => Promise<void>;
};

/** Common types to pick from; any other is typed in full. */
const typeChoices = ['image/*', 'video/*', 'audio/*', 'text/*', 'application/pdf'];

/**
 * The files page's search box (issue 40): the service's own search, as the project's admin
 * (every owner's files), newest first. A name needs 3 characters (the field says so before
 * anything is sent); a search too broad to answer at a page's cost is refused beside the fields.
 */
export function FileSearch({ action, terms, onSearch, onClear }: Props) {
  const submit = (event: Event) => {
    const { name, contentType } = formValues(event);
    const wanted = { ...(name ? { name } : {}), ...(contentType ? { contentType } : {}) };
    return action.run(() => (wanted.name || wanted.contentType ? onSearch(wanted) : onClear()));
  };
  const searching = terms.name !== undefined || terms.contentType !== undefined;
  return (
    <ActionForm action={action} onSubmit={submit} class="row" aria-label="Search files">
      <label>
        Name contains <input name="name" type="search" defaultValue={terms.name} minLength={3} />
      </label>
      <label>
        Type <input name="contentType" list="file-search-types" defaultValue={terms.contentType} />
      </label>
      <datalist id="file-search-types">
        {typeChoices.map((type) => (
          <option key={type} value={type} />
        ))}
      </datalist>
      <button type="submit" disabled={action.busy}>
        Search
      </button>
      {searching && (
        <button type="button" class="secondary" disabled={action.busy} onClick={() => action.run(onClear)}>
          Clear search
        </button>
      )}
    </ActionForm>
  );
}
