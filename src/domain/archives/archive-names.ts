/**
 * Names unique within one archive: a name already taken gets " (2)", " (3)"… before its
 * extension (`a.txt`, `a (2).txt`), as a desktop does for a second file of one name. Readers
 * would otherwise keep one of two entries of a name, or ask which.
 */
export class UniqueNames {
  readonly #taken = new Set<string>();

  take(name: string): string {
    let unique = name;
    for (let copy = 2; this.#taken.has(unique); copy += 1) unique = withCopyNumber(name, copy);
    this.#taken.add(unique);
    return unique;
  }
}

function withCopyNumber(name: string, copy: number): string {
  const slash = name.lastIndexOf('/');
  const dot = name.lastIndexOf('.');
  // An extension is a dot in the last segment, not at its start (`.profile` has none).
  const hasExtension = dot > slash + 1;
  return hasExtension ? `${name.slice(0, dot)} (${copy})${name.slice(dot)}` : `${name} (${copy})`;
}
