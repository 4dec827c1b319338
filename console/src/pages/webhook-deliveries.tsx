import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, type Delivery, type Project, type Webhook } from '../api.ts';
import { DataTable, ErrorNote, Section, StatusNote, useAction } from '../ui.tsx';
import { DeliveryAttempts } from './delivery-attempts.tsx';

type Page = { deliveries: Delivery[]; nextCursor: string | null };

const headers = ['Created', 'Event', 'Status', 'Attempts', 'Last status', 'Error', 'Actions'];

/** An endpoint's deliveries, newest first: status, attempts (each, folded), the last answer, and Retry. */
export function WebhookDeliveries({ project, webhook }: { project: Project; webhook: Webhook }) {
  const [page, setPage] = useState<Page>({ deliveries: [], nextCursor: null });
  const [note, setNote] = useState('');
  const action = useAction();
  const path = `/projects/${project.id}/webhooks/${webhook.id}/deliveries`;
  const load = (cursor?: string) =>
    action.run(async () => {
      const answer = await api<Page>('GET', cursor ? `${path}?cursor=${encodeURIComponent(cursor)}` : path);
      setPage((before) =>
        cursor
          ? { deliveries: [...before.deliveries, ...answer.deliveries], nextCursor: answer.nextCursor }
          : answer,
      );
    });
  useEffect(() => void load(), [webhook.id]);
  const retry = (delivery: Delivery) =>
    action.run(async () => {
      await api('POST', `${path}/${delivery.id}/retry`);
      setNote(`Delivery ${delivery.id} is due again now.`);
      const answer = await api<Page>('GET', path);
      setPage(answer);
    });
  return (
    <Section title="Deliveries">
      <p class="hint">
        To <code>{webhook.url}</code>, newest first. A retry sends the same event (same webhook-id) again.
      </p>
      <button type="button" onClick={() => load()} disabled={action.busy}>
        Refresh deliveries
      </button>
      <ErrorNote error={action.error} />
      {note && <StatusNote text={note} />}
      {page.deliveries.length === 0 && <p>No delivery yet.</p>}
      {page.deliveries.length > 0 && (
        <DataTable headers={headers}>
          {page.deliveries.map((delivery) => (
            <Fragment key={delivery.id}>
              <tr>
                <td>{new Date(delivery.createdAt).toLocaleString()}</td>
                <td>
                  {delivery.eventType}
                  <div class="hint">
                    <code>{delivery.eventId}</code>
                  </div>
                </td>
                <td>{delivery.status}</td>
                <td>{delivery.attempts}</td>
                <td>{delivery.lastStatus ?? '—'}</td>
                <td>{delivery.lastError ?? ''}</td>
                <td class="actions">
                  {/* A test event is sent once, at once: it has nothing to retry. */}
                  {delivery.eventType !== 'webhook.test' && (
                    <button
                      type="button"
                      aria-label={`Retry delivery ${delivery.id}`}
                      onClick={() => retry(delivery)}
                    >
                      Retry
                    </button>
                  )}
                </td>
              </tr>
              <DeliveryAttempts delivery={delivery} columns={headers.length} />
            </Fragment>
          ))}
        </DataTable>
      )}
      {page.nextCursor && (
        <button type="button" onClick={() => load(page.nextCursor!)}>
          Older deliveries
        </button>
      )}
    </Section>
  );
}
