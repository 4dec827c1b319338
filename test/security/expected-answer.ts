import assert from 'node:assert/strict';

export type Expected = { status: number; code?: string };
// biome-ignore lint/suspicious/noExplicitAny: tests read response bodies field by field
type Answer = { status: number; body: any; text: string };

/** How an answer differs from the expected status and code (in the error shape), or undefined. */
export function describeMismatch(name: string, answer: Answer, expected: Expected): string | undefined {
  const body = answer.body ?? {};
  const matches =
    answer.status === expected.status &&
    (expected.code === undefined || (body.code === expected.code && body.statusCode === expected.status));
  return matches
    ? undefined
    : `${name}: expected ${expected.status} ${expected.code ?? ''}, got ${answer.status} ${answer.text.slice(0, 120)}`;
}

/**
 * Runs table cases one after the other and fails once with every case that answered otherwise,
 * so that a run lists all of them rather than the first.
 */
export async function assertEveryCase<T extends { name: string }>(
  cases: readonly T[],
  run: (testCase: T) => Promise<{ answer: Answer; expected: Expected }>,
): Promise<void> {
  const wrong: string[] = [];
  for (const testCase of cases) {
    const { answer, expected } = await run(testCase);
    const mismatch = describeMismatch(testCase.name, answer, expected);
    if (mismatch) wrong.push(mismatch);
  }
  assert.deepEqual(wrong, [], `${wrong.length} of ${cases.length} cases answered otherwise`);
}

/** One answer checked on its own. */
export function assertAnswer(answer: Answer, expected: Expected, name: string): void {
  assert.equal(describeMismatch(name, answer, expected), undefined);
}
