import { randomBytes } from 'node:crypto';

/**
 * JSON text rendered elsewhere (by PostgreSQL: GET /rank/keywords) placed as it is where a
 * response is serialized by `stringifyJson`, so a large answer is neither parsed into
 * objects nor serialized again. The text must be one valid JSON value; whoever builds a
 * RawJson vouches for that (the rank renderer is tested byte for byte against
 * JSON.stringify).
 */
export class RawJson {
  constructor(readonly text: string) {}

  /** An array of JSON texts, each one valid JSON value. */
  static array(items: readonly string[]): RawJson {
    return new RawJson(`[${items.join(',')}]`);
  }

  /**
   * Inside `stringifyJson`: a placeholder, replaced by the text afterwards. Anywhere else
   * (a plain JSON.stringify): the parsed value, so the output is still right, only slower.
   */
  toJSON(): unknown {
    if (!collecting) return JSON.parse(this.text);
    collecting.push(this);
    return `${PLACEHOLDER}${collecting.length - 1}`;
  }
}

// The placeholder string carries a per-process random nonce and a NUL character, so no
// serialized value can be mistaken for it.
const PLACEHOLDER = `\u0000raw-json:${randomBytes(16).toString('hex')}:`;
let collecting: RawJson[] | null = null;

/** JSON.stringify(value) with every RawJson inside replaced by its text. */
export function stringifyJson(value: unknown): string {
  const outer = collecting;
  const found: RawJson[] = [];
  collecting = found;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    collecting = outer;
  }
  // Substituted in order of appearance (JSON.stringify visits members in order).
  let from = 0;
  for (let i = 0; i < found.length; i++) {
    const quoted = JSON.stringify(`${PLACEHOLDER}${i}`);
    const at = text.indexOf(quoted, from);
    text = text.slice(0, at) + found[i].text + text.slice(at + quoted.length);
    from = at + found[i].text.length;
  }
  return text;
}
