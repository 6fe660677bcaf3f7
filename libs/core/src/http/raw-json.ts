import { randomBytes } from 'node:crypto';

/**
 * JSON rendered elsewhere (by PostgreSQL: GET /rank/keywords) placed as it is where a
 * response is serialized by `serializeJson`, so a large answer is neither parsed into
 * objects nor serialized again. It is JSON text, or its UTF-8 bytes (an answer kept as the
 * bytes it was sent as, so it is not even encoded again). It must be one valid JSON value;
 * whoever builds a RawJson vouches for that (the rank renderer is tested byte for byte
 * against JSON.stringify).
 */
export class RawJson {
  constructor(readonly json: string | Buffer) {}

  /**
   * Inside `serializeJson`: a placeholder, replaced by the JSON afterwards. Anywhere else
   * (a plain JSON.stringify): the parsed value, so the output is still right, only slower.
   */
  toJSON(): unknown {
    if (!collecting) return JSON.parse(this.json.toString());
    collecting.push(this);
    return `${PLACEHOLDER}${collecting.length - 1}`;
  }
}

// The placeholder string carries a per-process random nonce and a NUL character, so no
// serialized value can be mistaken for it.
const PLACEHOLDER = `\u0000raw-json:${randomBytes(16).toString('hex')}:`;
let collecting: RawJson[] | null = null;

/** The UTF-8 bytes of JSON.stringify(value), with every RawJson inside placed as it is. */
export function serializeJson(value: unknown): Buffer {
  const outer = collecting;
  const found: RawJson[] = [];
  collecting = found;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    collecting = outer;
  }
  if (found.length === 0) return Buffer.from(text, 'utf8');
  // Substituted in order of appearance (JSON.stringify visits members in order): the text
  // between the placeholders, and each RawJson's bytes, copied once into the answer.
  const pieces: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < found.length; i++) {
    const quoted = JSON.stringify(`${PLACEHOLDER}${i}`);
    const at = text.indexOf(quoted, from);
    const { json } = found[i];
    pieces.push(
      Buffer.from(text.slice(from, at), 'utf8'),
      typeof json === 'string' ? Buffer.from(json, 'utf8') : json,
    );
    from = at + quoted.length;
  }
  pieces.push(Buffer.from(text.slice(from), 'utf8'));
  return Buffer.concat(pieces);
}
