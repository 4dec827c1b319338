import type { CustomData } from '../files/custom-data.ts';
import { parseCustomData } from '../files/custom-data.ts';
import type { AdmissionAnswer } from './admission-caller.ts';

/** The longest refusal reason kept and shown (`details.reason`); longer ones are cut. */
export const maxReasonLength = 500;

/** What a hook's answer means: allow (maybe with customData), refuse with a reason, or no usable answer. */
export type AdmissionVerdict =
  | { kind: 'allow'; customData?: CustomData }
  | { kind: 'refuse'; reason: string }
  | { kind: 'unavailable'; why: string };

/**
 * Only `200` with a JSON object whose `allow` is a boolean is an answer; anything else (a
 * timeout, a network error, another status, a body that is not such JSON, customData that
 * customData elsewhere would refuse) is no answer.
 */
export function toAdmissionVerdict(answer: AdmissionAnswer): AdmissionVerdict {
  if ('error' in answer) return { kind: 'unavailable', why: answer.error };
  if (answer.status !== 200) return { kind: 'unavailable', why: `the hook answered HTTP ${answer.status}` };
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return { kind: 'unavailable', why: 'the hook answered something other than JSON' };
  }
  if (typeof body !== 'object' || body === null || typeof (body as { allow?: unknown }).allow !== 'boolean')
    return { kind: 'unavailable', why: 'the hook answered no boolean allow' };
  const { allow, reason, customData } = body as { allow: boolean; reason?: unknown; customData?: unknown };
  if (!allow) {
    const text = typeof reason === 'string' && reason.trim() !== '' ? reason.trim() : 'no reason given';
    return { kind: 'refuse', reason: text.slice(0, maxReasonLength) };
  }
  if (customData === undefined) return { kind: 'allow' };
  try {
    return { kind: 'allow', customData: parseCustomData(customData) };
  } catch {
    return { kind: 'unavailable', why: 'the hook answered customData that customData may not be' };
  }
}
