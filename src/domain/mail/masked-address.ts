/**
 * An address as a log line may hold it (docs/security.md): the local part's first character and
 * the domain, `a***@example.com`: enough to tell a flood at one domain from many, not to read
 * whom a user asked mail for.
 */
export function toMaskedAddress(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  return `${address[0]}***${address.slice(at)}`;
}
