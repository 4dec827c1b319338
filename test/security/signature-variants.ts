/** RFC 4648 §5: the base64url alphabet, in value order. */
export const base64UrlAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export type SignatureVariant = { name: string; apply: (signature: string) => string };

/** An HMAC-SHA256 signature in base64url is 43 characters; the last one carries 2 unused bits. */
const signatureLength = 43;

const sextetOf = (character: string) => base64UrlAlphabet.indexOf(character);
const withValue = (value: number) => base64UrlAlphabet[value] as string;
const replaceAt = (text: string, index: number, character: string) =>
  text.slice(0, index) + character + text.slice(index + 1);
/** Flips bits of the 6-bit value of one character (32: its first bit, always a data bit). */
const flipBits = (signature: string, index: number, bits: number) =>
  replaceAt(signature, index, withValue(sextetOf(signature[index] as string) ^ bits));

/**
 * Every way of changing a signature that a test expects to be refused: each character changed
 * in turn, and the lenient spellings a base64 decoder forgives (padding, the standard alphabet,
 * the unused low bits of the last character, junk), which decode to the very same bytes.
 */
export const signatureVariants: SignatureVariant[] = [
  ...Array.from({ length: signatureLength }, (_, index) => ({
    name: `character ${index + 1} changed`,
    apply: (signature: string) => flipBits(signature, index, 32),
  })),
  ...[1, 2, 3].map((bits) => ({
    name: `unused low bits of the last character flipped (${bits})`,
    apply: (signature: string) => flipBits(signature, signatureLength - 1, bits),
  })),
  { name: 'padded with =', apply: (signature) => `${signature}=` },
  {
    name: 'the standard base64 alphabet',
    apply: (signature) => signature.replace(/-/g, '+').replace(/_/g, '/'),
  },
  {
    name: 'standard base64 of the same bytes',
    apply: (signature) => Buffer.from(signature, 'base64url').toString('base64'),
  },
  {
    name: 'hexadecimal of the same bytes',
    apply: (signature) => Buffer.from(signature, 'base64url').toString('hex'),
  },
  { name: 'one character appended', apply: (signature) => `${signature}A` },
  { name: 'junk appended', apply: (signature) => `${signature}~junk` },
  { name: 'the last character dropped', apply: (signature) => signature.slice(0, -1) },
  { name: 'half of it', apply: (signature) => signature.slice(0, 22) },
  { name: 'doubled', apply: (signature) => signature + signature },
  { name: 'reversed', apply: (signature) => [...signature].reverse().join('') },
  { name: 'all zero bytes', apply: () => Buffer.alloc(32).toString('base64url') },
];
