import { useEffect, useState } from 'preact/hooks';
import { api, type Project, type Webhook } from '../api.ts';
import {
  ActionForm,
  DataTable,
  ErrorNote,
  formValues,
  Loading,
  Section,
  StatusNote,
  useAction,
} from '../ui.tsx';
import { WebhookDeliveries } from './webhook-deliveries.tsx';
import { WebhookSecret } from './webhook-secret.tsx';

/** A project's webhook endpoints: add (the secret shown once), enable or disable, test, delete, deliveries. */
export function WebhooksPage({ project }: { project: Project }) {
  const [webhooks, setWebhooks] = useState<Webhook[] | null>(null);
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const [shown, setShown] = useState<Webhook | null>(null);
  const [note, setNote] = useState('');
  const loading = useAction();
  const action = useAction();
  const creating = useAction();
  const path = `/projects/${project.id}/webhooks`;
  useEffect(
    () =>
      void loading.run(async () => setWebhooks((await api<{ webhooks: Webhook[] }>('GET', path)).webhooks)),
    [project.id],
  );
  /** Each change answers the endpoint as it now is: the list keeps its order. */
  const replace = (webhook: Webhook) =>
    setWebhooks((before) => (before ?? []).map((kept) => (kept.id === webhook.id ? webhook : kept)));
  const create = (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const { url, events, description } = formValues(event);
    return creating.run(async () => {
      const list = (events ?? '').split(/[\s,]+/).filter(Boolean);
      const body = { url, events: list.length ? list : ['*'], description: description ?? '' };
      const answer = await api<{ webhook: Webhook; secret: string }>('POST', path, body);
      setCreated({ url: answer.webhook.url, secret: answer.secret });
      setWebhooks((before) => [...(before ?? []), answer.webhook]);
      form.reset();
    });
  };
  const toggle = (webhook: Webhook) =>
    action.run(async () => {
      const answer = await api<{ webhook: Webhook }>('PATCH', `${path}/${webhook.id}`, {
        enabled: !webhook.enabled,
      });
      replace(answer.webhook);
      setNote(`${answer.webhook.enabled ? 'Enabled' : 'Disabled'} ${webhook.url}.`);
    });
  const sendTest = (webhook: Webhook) =>
    action.run(async () => {
      const { delivery } = await api<{ delivery: { status: string; lastStatus: number | null } }>(
        'POST',
        `${path}/${webhook.id}/test`,
      );
      setNote(`Test event to ${webhook.url}: ${delivery.status} (${delivery.lastStatus ?? 'no answer'}).`);
    });
  const remove = (webhook: Webhook) => {
    if (!confirm(`Delete the webhook to ${webhook.url} and its deliveries?`)) return;
    return action.run(async () => {
      await api('DELETE', `${path}/${webhook.id}`);
      setWebhooks((before) => (before ?? []).filter((kept) => kept.id !== webhook.id));
      if (shown?.id === webhook.id) setShown(null);
      setNote(`Deleted the webhook to ${webhook.url}.`);
    });
  };
  if (!webhooks) return <Loading error={loading.error} />;
  return (
    <>
      <Section title="Webhooks">
        <ErrorNote error={action.error} />
        {note && <StatusNote text={note} />}
        {webhooks.length === 0 && <p>No webhook yet.</p>}
        {webhooks.length > 0 && (
          <DataTable headers={['URL', 'Events', 'State', 'Actions']}>
            {webhooks.map((webhook) => (
              <tr key={webhook.id} aria-current={shown?.id === webhook.id ? 'true' : undefined}>
                <td>
                  <code>{webhook.url}</code>
                  {webhook.description && <div class="hint">{webhook.description}</div>}
                </td>
                <td>{webhook.events.join(', ')}</td>
                <td>
                  {webhook.enabled ? 'enabled' : 'disabled'}
                  {webhook.disabledReason && <div class="hint">{webhook.disabledReason}</div>}
                </td>
                <td class="actions">
                  <button
                    type="button"
                    aria-label={`Deliveries of ${webhook.url}`}
                    onClick={() => setShown(webhook)}
                  >
                    Deliveries
                  </button>
                  <button
                    type="button"
                    aria-label={`Send a test event to ${webhook.url}`}
                    onClick={() => sendTest(webhook)}
                  >
                    Test
                  </button>
                  <button
                    type="button"
                    aria-label={`${webhook.enabled ? 'Disable' : 'Enable'} ${webhook.url}`}
                    onClick={() => toggle(webhook)}
                  >
                    {webhook.enabled ? 'Disable' : 'Enable'}
                  </button>
                  <button
                    type="button"
                    class="danger"
                    aria-label={`Delete ${webhook.url}`}
                    onClick={() => remove(webhook)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Section>
      {shown && <WebhookDeliveries project={project} webhook={shown} />}
      <Section title="New webhook">
        <ActionForm action={creating} onSubmit={create} class="stack">
          <label>
            Endpoint URL{' '}
            <input name="url" type="url" required placeholder="https://example.com/coffer-events" />
          </label>
          <label>
            Events (comma-separated; empty for every event)
            <input name="events" placeholder="file.*, user.login" />
          </label>
          <label>
            Description (optional) <input name="description" maxLength={256} />
          </label>
          <button type="submit" disabled={creating.busy}>
            Add webhook
          </button>
        </ActionForm>
        {created && <WebhookSecret url={created.url} secret={created.secret} />}
      </Section>
    </>
  );
}
