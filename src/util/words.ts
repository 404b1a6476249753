/** Lists in prose, as messages and help say them. */

/** "a, b or c"; "a" alone. */
export function orList(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}
