/** "Did you mean": the known names closest to a mistyped one. */

/** Edit distance (insert, delete, substitute, swap of neighbours), case-insensitive. */
function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i, ...Array<number>(t.length).fill(0)]);
  for (let j = 1; j <= t.length; j += 1) d[0]![j] = j;
  for (let i = 1; i <= s.length; i += 1) {
    for (let j = 1; j <= t.length; j += 1) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[s.length]![t.length]!;
}

/** Up to `max` candidates within a third of the input's length in edits (or that start with it), closest first. */
export function closest(input: string, candidates: readonly string[], max = 3): string[] {
  const limit = Math.max(2, Math.ceil(input.length / 3));
  return candidates
    .map((name) => ({ name, distance: name.toLowerCase().startsWith(input.toLowerCase()) ? 0 : editDistance(input, name) }))
    .filter((c) => c.distance <= limit)
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((c) => c.name);
}
