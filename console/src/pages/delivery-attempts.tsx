import type { Delivery } from '../api.ts';

/**
 * A delivery's attempts, oldest first, folded under one line (issue 43, item 7): when, the
 * status or why no answer came, how long, and the head of the answer's body, as Svix and Stripe
 * show them. A row of its own under the delivery's, across the table.
 */
export function DeliveryAttempts({ delivery, columns }: { delivery: Delivery; columns: number }) {
  if (delivery.attemptLog.length === 0) return null;
  return (
    <tr class="attempt-log">
      <td colSpan={columns}>
        <details>
          <summary aria-label={`Attempts of delivery ${delivery.id}`}>
            Attempts ({delivery.attemptLog.length})
          </summary>
          <ol>
            {delivery.attemptLog.map((attempt) => (
              <li key={attempt.attempt} value={attempt.attempt}>
                {new Date(attempt.at).toLocaleString()} · {attempt.statusCode ?? attempt.error ?? '—'} ·{' '}
                {attempt.durationMs} ms
                {attempt.responseBody && (
                  <pre class="preview">
                    {attempt.responseBody}
                    {attempt.responseBodyTruncated && '… (the first 1 KiB)'}
                  </pre>
                )}
              </li>
            ))}
          </ol>
        </details>
      </td>
    </tr>
  );
}
