import type { Operator } from '../../domain/operators/operator-repository.ts';

/** The signed-in operator as the console API answers it. */
export const toOperatorView = (operator: Operator) => ({
  operator: { id: operator.id, email: operator.email },
});
