import { Type } from '@sinclair/typebox';

/** An address as signup takes it. */
export const EmailField = Type.String({ maxLength: 320, description: 'The account’s email address' });

/** A mail's token, as its link's fragment carries it (`#token=…`). */
export const TokenField = Type.String({
  minLength: 1,
  maxLength: 128,
  description: 'The token of the mail’s link (the part after #token=)',
});

/** 202: the same answer whether the address has an account or not. */
export const AcceptedSchema = Type.Object(
  {},
  {
    description:
      'Accepted. The same answer, in the same time, for an address without an account (which gets no mail) and within the per-address limits (which send none).',
  },
);
