import assert from 'node:assert/strict';
import { it } from 'node:test';
import { toAttachmentDisposition } from './content-disposition.ts';

it('gives an ASCII fallback and an RFC 5987 UTF-8 name', () => {
  assert.equal(
    toAttachmentDisposition('Résumé (final) "v2".pdf'),
    `attachment; filename="R_sum_ (final) _v2_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%28final%29%20%22v2%22.pdf`,
  );
});

it('keeps header-breaking characters out of the fallback', () => {
  const header = toAttachmentDisposition('a\r\nSet-Cookie: x=1\\.txt');
  assert.doesNotMatch(header, /[\r\n]/);
  assert.match(
    header,
    /^attachment; filename="a__Set-Cookie: x=1_\.txt"; filename\*=UTF-8''a%0D%0ASet-Cookie%3A%20x%3D1%5C\.txt$/,
  );
});

it('encodes apostrophes and stars, which RFC 5987 reserves', () => {
  assert.match(toAttachmentDisposition("it's*.txt"), /filename\*=UTF-8''it%27s%2A\.txt$/);
});
