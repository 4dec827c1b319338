import { confirmTotp } from './confirm-totp.ts';
import { passMfa } from './pass-mfa.ts';
import { removeTotp } from './remove-totp.ts';
import { startTotp } from './start-totp.ts';

/** The /api/v1 routes of second factors (issue 41), in the order they are registered (and documented). */
export const mfaRoutes = [passMfa, startTotp, confirmTotp, removeTotp];
