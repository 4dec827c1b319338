import { maxTimerSeconds, type Setting } from '../setting.ts';

/** How large a request body may be and how long a client has to send a request. */
export const requestLimitSettings = {
  jsonBodyLimitBytes: {
    env: 'COFFER_JSON_BODY_LIMIT_BYTES',
    kind: 'integer',
    defaultValue: 65536,
    min: 1024,
    doc: 'Largest JSON request body on the control plane (413 BODY_TOO_LARGE).',
  },
  headersTimeoutSeconds: {
    env: 'COFFER_HEADERS_TIMEOUT_SECONDS',
    kind: 'integer',
    defaultValue: 30,
    min: 1,
    max: maxTimerSeconds,
    doc: 'Time a client has to send the request headers.',
  },
  requestTimeoutSeconds: {
    env: 'COFFER_REQUEST_TIMEOUT_SECONDS',
    kind: 'integer',
    defaultValue: 3600,
    min: 1,
    max: maxTimerSeconds,
    doc: 'Time a client has to send a whole upload (a PUT to an upload link), body included.',
  },
  bodyTimeoutSeconds: {
    env: 'COFFER_BODY_TIMEOUT_SECONDS',
    kind: 'integer',
    defaultValue: 30,
    min: 1,
    max: maxTimerSeconds,
    doc: 'Time a client has to send any other request body (JSON on /api/v1) once its headers are in (408 REQUEST_TIMEOUT).',
  },
  idleTimeoutSeconds: {
    env: 'COFFER_IDLE_TIMEOUT_SECONDS',
    kind: 'integer',
    defaultValue: 60,
    min: 1,
    max: maxTimerSeconds,
    doc: 'A connection silent for this long is closed.',
  },
} as const satisfies Record<string, Setting>;
