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
  return serializeJsonPlaced(value).bytes;
}

/**
 * serializeJson, and where the answer's one RawJson held as bytes was placed (`raw` and its
 * byte offset `at` in `bytes`; null when there is none or more than one): the answer is
 * `bytes[0, at)` + `raw` + the rest, so a compressor can keep the compressed form of the part
 * up to the end of `raw` for as long as `raw` is kept (libs/gateway/src/compression.ts).
 */
export function serializeJsonPlaced(value: unknown): {
  bytes: Buffer;
  raw: Buffer | null;
  at: number;
} {
  const outer = collecting;
  const found: RawJson[] = [];
  collecting = found;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    collecting = outer;
  }
  if (found.length === 0) return { bytes: Buffer.from(text, 'utf8'), raw: null, at: 0 };
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
  const bytes = Buffer.concat(pieces);
  const only = found.length === 1 && Buffer.isBuffer(found[0].json) ? found[0].json : null;
  return { bytes, raw: only, at: only ? pieces[0].length : 0 };
}
