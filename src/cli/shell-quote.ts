/** Quotes words for a POSIX shell, so a printed command can be pasted as is. */
export function shellQuote(words: readonly string[]): string {
  return words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}
