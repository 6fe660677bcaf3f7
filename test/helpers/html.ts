/**
 * An attribute value or text as a browser reads it: named (`&quot;` `&lt;` `&gt;` `&amp;`)
 * and numeric (`&#39;`, `&#x3D;`) character references decoded. The page templates escape
 * `=`, `'` and `` ` `` as numeric references.
 */
export function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|quot|lt|gt|amp);/gi, (_, ref: string) => {
    if (ref[0] === '#') {
      const hex = ref[1] === 'x' || ref[1] === 'X';
      return String.fromCodePoint(parseInt(ref.slice(hex ? 2 : 1), hex ? 16 : 10));
    }
    return { quot: '"', lt: '<', gt: '>', amp: '&' }[ref.toLowerCase()] as string;
  });
}
