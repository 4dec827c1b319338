import { Type } from '@sinclair/typebox';

/** A passkey as the API lists it (issue 41). */
export const PasskeySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'Passkey' },
);

/** WebAuthn options as JSON (PublicKeyCredentialCreationOptionsJSON / …RequestOptionsJSON): give them to @simplewebauthn/browser. */
export const PasskeyOptionsSchema = Type.Object(
  { challenge: Type.String({ description: 'base64url; good once, for 5 minutes' }) },
  { additionalProperties: true, title: 'PasskeyOptions' },
);

/**
 * The browser's answer as @simplewebauthn/browser returns it (RegistrationResponseJSON or
 * AuthenticationResponseJSON): checked in depth by @simplewebauthn/server, bounded here.
 */
export const PasskeyResponseField = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 1024 }),
    rawId: Type.String({ minLength: 1, maxLength: 1024 }),
    type: Type.Literal('public-key'),
    response: Type.Object(
      { clientDataJSON: Type.String({ minLength: 1, maxLength: 8192 }) },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);
