import net from 'node:net';

export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/**
 * One raw HTTP/1.1 request, exactly as written: the request target as given (no client
 * normalizes it) and only the headers named (a client library adds Content-Length or
 * Transfer-Encoding to every POST), plus Host and `Connection: close`.
 */
export function rawRequest(
  base: string,
  method: string,
  target: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const at = data.indexOf('\r\n\r\n');
      const [statusLine, ...headerLines] = data.slice(0, at).split('\r\n');
      const parsed: Record<string, string> = {};
      for (const line of headerLines) {
        const i = line.indexOf(':');
        parsed[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers: parsed,
        body: Buffer.from(data.slice(at + 4), 'latin1').toString('utf8'),
      });
    });
    socket.write(
      `${method} ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${lines.join('')}Connection: close\r\n\r\n`,
    );
  });
}
