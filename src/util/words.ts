/** Lists in prose, as messages and help say them. */

function joined(words: readonly string[], last: string): string {
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} ${last} ${words[words.length - 1]}`;
}

/** "a, b or c"; "a" alone. */
export function orList(words: readonly string[]): string {
  return joined(words, 'or');
}

/** "a, b and c"; "a" alone. */
export function andList(words: readonly string[]): string {
  return joined(words, 'and');
}
