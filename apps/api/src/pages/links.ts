/** A URL from outside (a crawled page, a client's metadata) as a link only when it is http(s). */
export interface LinkView {
  /** The URL to link, or null: then the text is shown without a link. */
  href: string | null;
  text: string;
}

/** A link for http: and https: URLs; any other value (javascript:, data:, garbage) is text. */
export function httpLink(url: string, text: string = url): LinkView {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') {
      return { href: parsed.href, text };
    }
  } catch {
    // not a URL: shown as text
  }
  return { href: null, text };
}
