import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { ActionForm, ErrorNote, formValues, useAction } from '../ui.tsx';

type Signed = { operator: { email: string } };

/** The password form; a one-time link from `coffer console` (/console/sign-in#token=…) signs in by itself. */
export function SignIn({ onSignedIn }: { onSignedIn: (email: string) => void }) {
  const signing = useAction();
  const [linkError, setLinkError] = useState<unknown>(null);
  useEffect(() => {
    const token = new URLSearchParams(location.hash.slice(1)).get('token');
    if (!token) return;
    // The token leaves the address bar (and the history) before it is even used.
    history.replaceState(null, '', '/console');
    api<Signed>('POST', '/session/link', { token }).then(
      (signed) => onSignedIn(signed.operator.email),
      setLinkError,
    );
  }, []);
  const submit = (event: Event) => {
    const { email, password } = formValues(event);
    return signing.run(async () => {
      const signed = await api<Signed>('POST', '/session', { email, password });
      onSignedIn(signed.operator.email);
    });
  };
  return (
    <main class="narrow">
      <ActionForm action={signing} class="card" onSubmit={submit}>
        <h1>Coffer console</h1>
        <ErrorNote error={linkError} />
        <label>
          Email <input name="email" type="email" autocomplete="username" required />
        </label>
        <label>
          Password <input name="password" type="password" autocomplete="current-password" required />
        </label>
        <button type="submit" disabled={signing.busy}>
          Sign in
        </button>
      </ActionForm>
    </main>
  );
}
