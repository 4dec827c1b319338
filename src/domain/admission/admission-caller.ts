/** One signed POST to a project's admission hook. */
export type AdmissionCall = {
  url: string;
  /** The project's `admissionSecret` (`whsec_…`); signs the body (Standard Webhooks). */
  secret: string;
  /** `webhook-id`: the same for every call about the same pending bytes (a receiver dedupes by it). */
  webhookId: string;
  attemptedAt: Date;
  body: string;
  /** The whole budget: connect, send and read the answer. */
  timeoutSeconds: number;
};

/** What came back: a status and the first bytes of the body (bounded), or why there was no answer. */
export type AdmissionAnswer = { status: number; body: Buffer } | { error: string };

/** Posts admission calls through the webhooks' guard against private addresses, never following a redirect. */
export interface AdmissionCaller {
  call(request: AdmissionCall): Promise<AdmissionAnswer>;
}
