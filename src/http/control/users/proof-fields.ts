import { Type } from '@sinclair/typebox';

/** What proves a signed-in user is themselves (reauthentication.ts): one of these, or a recent sign-in. */
export const proofFields = {
  password: Type.Optional(Type.String({ maxLength: 1024, description: 'The account’s password' })),
  code: Type.Optional(
    Type.String({ maxLength: 16, description: 'A current code of the account’s second factor (TOTP)' }),
  ),
  recoveryCode: Type.Optional(
    Type.String({ maxLength: 64, description: 'One of the account’s recovery codes (spent by it)' }),
  ),
};
