// The link service reads the credentials and providers through the sandbox's own public API, as
// the real hosted flow would, instead of reaching into another area's state: a loopback request to
// the sandbox's base URL (its own certificate is accepted in --tls mode).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

const MAX_BYTES = 2 * 1024 * 1024;

export interface SelfAnswer {
  status: number;
  body: unknown;
}

/** GET and DELETE are retried on a dropped connection, 429 and 5xx (the sandbox may be injecting faults). */
export async function selfCall(
  baseUrl: string,
  method: string,
  path: string,
  token: string,
  attempts = 3,
  body?: unknown,
): Promise<SelfAnswer> {
  let answer: SelfAnswer = { status: 0, body: null };
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** i));
    answer = await once(baseUrl, method, path, token, 10_000, body);
    if (answer.status !== 0 && answer.status !== 429 && answer.status < 500) break;
  }
  return answer;
}

function once(
  baseUrl: string,
  method: string,
  path: string,
  token: string,
  timeoutMs = 10_000,
  body?: unknown,
): Promise<SelfAnswer> {
  const url = new URL(path, baseUrl);
  const req = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const r = req(
      url,
      {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        rejectUnauthorized: false,
        agent: false,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_BYTES) {
            res.destroy();
            return;
          }
          chunks.push(c);
        });
        res.on('error', () => resolve({ status: 0, body: null }));
        res.on('close', () => resolve({ status: 0, body: null }));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : null;
          } catch {
            /* not JSON: keep the text */
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    r.on('timeout', () => r.destroy(new Error('timeout')));
    r.on('error', () => resolve({ status: 0, body: null }));
    r.end(body !== undefined ? JSON.stringify(body) : undefined);
  });
}
