import type { AdmissionHook } from './admission-hook.ts';

/**
 * Bytes adopted from a direct upload at verify have no pending row yet, and the admission hook
 * keeps its claim and outcome on that row (one call per upload, a retry answering the same) and
 * its `url` serves only a pending upload. So, where the project has a hook, verify records the
 * adopted copy first — its quotas checked, as a scanner that could not answer records it — then
 * starts again on it as on any pending upload. True when the caller should verify again; the
 * copy is discarded when it could not be kept (another upload or verify came first, or a quota).
 */
export async function keepAdoptedForHook(o: {
  hook: AdmissionHook | undefined;
  projectId: string;
  /** The adopted bytes became the pending upload (false: something else changed it first). */
  record: () => Promise<boolean>;
  discard: () => Promise<void>;
}): Promise<boolean> {
  if (!(await o.hook?.isOn(o.projectId))) return false;
  try {
    if (!(await o.record())) await o.discard();
  } catch (error) {
    await o.discard();
    throw error;
  }
  return true;
}
