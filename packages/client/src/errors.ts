/**
 * An answer in Coffer's error shape, or, with status 0, what the client found itself: no answer
 * (NETWORK_ERROR), or a provider sign-in that could not go on (POPUP_BLOCKED, POPUP_UNAVAILABLE,
 * SIGN_IN_CANCELLED, SIGN_IN_STATE_MISMATCH, IDENTITY_NOT_LINKED: auth-calls.ts).
 */
export class CofferError extends Error {
  readonly status: number;
  /** Stable: VALIDATION_FAILED, ACCESS_DENIED, FILE_NOT_FOUND, TOKEN_EXPIRED, … (see the API reference). */
  readonly code: string;
  /** MFA_REQUIRED: the token of the second step (`client.mfa.complete`) and the factors it takes. */
  readonly mfaToken?: string;
  readonly methods?: string[];
  /** MFA_ENROLMENT_REQUIRED: the token that enrols a factor (`client.mfa.startTotp({ enrolmentToken })`). */
  readonly enrolmentToken?: string;

  constructor(status: number, code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CofferError';
    this.status = status;
    this.code = code;
  }
}

/** Reads an error answer; a body that is not the error shape still becomes a CofferError. */
export async function toCofferError(response: Response): Promise<CofferError> {
  return fromErrorText(response.status, await response.text().catch(() => ''), response.statusText);
}

/** An error answer's status and body text (fetch or XMLHttpRequest) as a CofferError. */
export function fromErrorText(status: number, text: string, statusText = ''): CofferError {
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown } & Record<string, unknown>;
    if (typeof body.code === 'string') {
      const error = new CofferError(status, body.code, String(body.message ?? body.code));
      const { mfaToken, methods, enrolmentToken } = body;
      return Object.assign(error, {
        ...(typeof mfaToken === 'string' && { mfaToken }),
        ...(Array.isArray(methods) && { methods: methods.map(String) }),
        ...(typeof enrolmentToken === 'string' && { enrolmentToken }),
      });
    }
  } catch {
    // not JSON: described below
  }
  return new CofferError(status, `HTTP_${status}`, text.slice(0, 200) || statusText);
}

/**
 * A call that got no answer. From a browser page of another origin, a refused origin looks the
 * same to the page as a server that is down (the browser hides the CORS refusal), so the
 * message names that cause and the setting that lifts it.
 */
export function unreachable(what: string, baseUrl: string, cause: unknown): CofferError {
  const page = (globalThis as { location?: { origin?: string } }).location?.origin;
  let crossOrigin = false;
  try {
    crossOrigin = typeof document !== 'undefined' && !!page && new URL(baseUrl).origin !== page;
  } catch {
    // a baseUrl that is no URL: fetch said what is wrong with it
  }
  const hint = crossOrigin
    ? ` (or it refused this page's origin: ${page} must be one of the project's allowed origins, \`npx coffer project origin add <project> ${page}\`)`
    : '';
  return new CofferError(0, 'NETWORK_ERROR', `${what} could not reach the server${hint}`, { cause });
}
