import { useState } from 'preact/hooks';
import { OnceSecret } from '../ui.tsx';

/** The new endpoint's signing secret, this once, with a copy button and where it goes. */
export function WebhookSecret({ url, secret }: { url: string; secret: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard.writeText(secret).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <div class="stack">
      <OnceSecret label="Signing secret" value={secret} />
      <p class="hint">
        Copy it into the receiver at {url} now: it verifies each delivery's webhook-signature with it
        (Standard Webhooks). Coffer never shows it again.
      </p>
      <button type="button" onClick={copy}>
        {copied ? 'Copied' : 'Copy secret'}
      </button>
    </div>
  );
}
