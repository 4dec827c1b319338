/**
 * The script of Coffer's own account pages: it takes the token from the fragment (which no
 * server ever sees), clears it from the address bar and the history, and spends it only when
 * the user submits the form: a mail scanner that fetches or even renders the link spends nothing.
 */
export const accountPageScript = `(() => {
  const form = document.querySelector('form');
  const status = document.getElementById('status');
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (location.hash) history.replaceState(null, '', location.pathname);
  if (!form) return;
  if (!token) {
    form.hidden = true;
    status.textContent = 'This link is incomplete: open it from the mail again.';
    return;
  }
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button');
    button.disabled = true;
    const body = { token };
    const password = form.elements.namedItem('newPassword');
    if (password) body.newPassword = password.value;
    try {
      const response = await fetch(location.pathname, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.ok) {
        form.hidden = true;
        status.textContent = form.dataset.done;
        return;
      }
      const error = await response.json().catch(() => ({}));
      status.textContent = error.message || 'Something went wrong. Try again.';
      if (error.code === 'INVALID_TOKEN') form.hidden = true;
    } catch {
      status.textContent = 'The server could not be reached. Try again.';
    }
    button.disabled = false;
  });
})();
`;

export const accountPageStyle = `body { font: 16px/1.5 system-ui, sans-serif; max-width: 28rem; margin: 4rem auto; padding: 0 1rem; color: #1b1b1b; }
h1 { font-size: 1.4rem; }
label { display: block; margin: 1rem 0 .25rem; }
input { width: 100%; box-sizing: border-box; padding: .5rem; font: inherit; }
button { margin-top: 1rem; padding: .5rem 1rem; font: inherit; }
#status { margin-top: 1rem; }
`;
