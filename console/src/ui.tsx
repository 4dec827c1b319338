import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { describeError } from './api.ts';

/** A failure, told to screen readers as it appears. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" class="error">
      {describeError(error)}
    </p>
  );
}

/** A success or progress line, read out politely. */
export function StatusNote({ text }: { text: string }) {
  return (
    <p role="status" class="status">
      {text}
    </p>
  );
}

/**
 * Runs an action of a button or form: keeps its error for ErrorNote and whether it is running
 * (so a double click does not send it twice). A new run clears the error of the last one.
 */
export function useAction() {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  async function run(action: () => Promise<void>) {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }
  const clearError = () => setError(null);
  return { error, busy, run, clearError };
}

export type Action = ReturnType<typeof useAction>;

type ActionFormProps = {
  /** The action the form runs: its failure shows inside this form, not elsewhere. */
  action: Action;
  onSubmit: (event: Event) => unknown;
  class?: string;
  'aria-label'?: string;
  children: ComponentChildren;
};

/**
 * A form that tells its own failure, in the service's words, beside its fields; the message
 * goes as soon as the operator edits the form, or when it is sent again.
 */
export function ActionForm({ action, onSubmit, children, ...rest }: ActionFormProps) {
  return (
    <form {...rest} onSubmit={onSubmit} onInput={action.error ? action.clearError : undefined}>
      {children}
      <ErrorNote error={action.error} />
    </form>
  );
}

/**
 * What a view shows until its first data is in: the view then appears whole, in one step, so
 * nothing already on screen moves (no layout shift) as its parts arrive one by one.
 */
export function Loading({ error }: { error?: unknown }) {
  if (error) return <ErrorNote error={error} />;
  return <p class="loading">Loading…</p>;
}

export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  const id = `section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section class="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** A secret shown once: the operator copies it now or creates another. */
export function OnceSecret({ label, value }: { label: string; value: string }) {
  return (
    <div class="secret" role="status">
      <p>
        <strong>{label}</strong>: shown this once; keep it now.
      </p>
      <input
        class="secret-value"
        readOnly
        value={value}
        aria-label={label}
        onFocus={(event) => event.currentTarget.select()}
      />
    </div>
  );
}

/** Reads a form's fields by name. */
export function formValues(event: Event): Record<string, string> {
  event.preventDefault();
  const form = event.currentTarget as HTMLFormElement;
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) if (typeof value === 'string') values[name] = value;
  return values;
}

/** A table that scrolls sideways on a narrow screen rather than widening the page. */
export function DataTable({ headers, children }: { headers: string[]; children: ComponentChildren }) {
  return (
    <div class="table-scroll">
      <table>
        <thead>
          <tr>
            {headers.map((header) => (
              <th scope="col" key={header}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
