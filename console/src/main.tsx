import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import './console.css';

/** Every console API call: same-origin cookie and the header the CSRF barrier asks for. */
async function callApi(method: string, url: string, body?: unknown): Promise<Response> {
  return fetch(url, {
    method,
    credentials: 'same-origin',
    headers: { 'X-Coffer-Console': '1', ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

function SignIn({ onSignedIn }: { onSignedIn: (email: string) => void }) {
  const [error, setError] = useState('');
  async function submit(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const response = await callApi('POST', '/console/api/session', {
      email: form.get('email'),
      password: form.get('password'),
    });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      setError(body?.message ?? `Sign-in failed (${response.status})`);
      return;
    }
    const { operator } = await response.json();
    onSignedIn(operator.email);
  }
  return (
    <form class="card" onSubmit={submit}>
      <h1>Coffer console</h1>
      <label>
        Email <input name="email" type="email" autocomplete="username" required />
      </label>
      <label>
        Password <input name="password" type="password" autocomplete="current-password" required />
      </label>
      {error && <p role="alert">{error}</p>}
      <button type="submit">Sign in</button>
    </form>
  );
}

function App() {
  const [operator, setOperator] = useState<string | null>(null);
  const [checked, setChecked] = useState(false);
  // A session cookie from before (a reload, a new tab) signs the page in without a form.
  useEffect(() => {
    callApi('GET', '/console/api/session')
      .then(async (response) =>
        response.ok ? setOperator((await response.json()).operator.email) : undefined,
      )
      .catch(() => undefined)
      .finally(() => setChecked(true));
  }, []);
  if (!checked) return <p class="card">Loading…</p>;
  if (!operator) return <SignIn onSignedIn={setOperator} />;
  return (
    <section class="card">
      <h1>Signed in as {operator}</h1>
      <button
        type="button"
        onClick={async () => {
          await callApi('DELETE', '/console/api/session');
          setOperator(null);
        }}
      >
        Sign out
      </button>
    </section>
  );
}

render(<App />, document.getElementById('app')!);
