/**
 * The few S3 XML documents swapx reads (an error, a list page, a multipart upload's id), read by their element
 * names: S3's bodies have no attributes, comments or CDATA that matter here, so a parser package would be weight
 * without a use. Text is unescaped (&amp;, &lt;, &#NN;, …).
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return ENTITIES[name]!;
  });
}

/** The raw inner text of each `<name>…</name>` in `xml`, in order. */
export function elements(xml: string, name: string): string[] {
  const out: string[] = [];
  const open = new RegExp(`<${name}(?:\\s[^>]*)?>`, 'g');
  const close = `</${name}>`;
  for (let match = open.exec(xml); match; match = open.exec(xml)) {
    const start = match.index + match[0].length;
    const end = xml.indexOf(close, start);
    if (end === -1) break;
    out.push(xml.slice(start, end));
    open.lastIndex = end + close.length;
  }
  return out;
}

/** The unescaped text of the first `<name>` in `xml`, or undefined. */
export function text(xml: string, name: string): string | undefined {
  const inner = elements(xml, name)[0];
  return inner === undefined ? undefined : unescapeXml(inner);
}

/** The XML-escaped form of a value put into a document we send (a part's ETag). */
export function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
