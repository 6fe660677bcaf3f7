import { randomBytes } from 'node:crypto';
import request, { Response } from 'supertest';
import { AdminClient, Plan, TestAccount } from '../helpers/fixtures';
import { decodeEntities } from '../helpers/html';

/** A person of an account, created through the admin API (not signed in). */
export interface PagePerson {
  account: TestAccount;
  email: string;
  password: string;
}

export async function createPerson(url: string, plan: Plan = 'pro'): Promise<PagePerson> {
  const admin = new AdminClient(url);
  const account = await admin.account(plan);
  const email = `page-${randomBytes(5).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const res = await admin.post(`/accounts/${account.id}/users`, { email, password });
  if (res.status !== 201) throw new Error(`user create failed: ${JSON.stringify(res.body)}`);
  return { account, email, password };
}

/** `name=value` of each Set-Cookie of an answer, by name. */
export function setCookies(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of ([] as string[]).concat(res.headers['set-cookie'] ?? [])) {
    const pair = line.split(';')[0];
    out[pair.slice(0, pair.indexOf('='))] = line;
  }
  return out;
}

/** The `name=value` part of a Set-Cookie line. */
export const cookiePair = (line: string | undefined): string => (line ?? '').split(';')[0];

/** The value of the hidden input `name` of a page (first match). */
export function hiddenValue(html: string, name: string): string | null {
  const m = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html);
  return m ? decodeEntities(m[1]) : null;
}

/** Loads the sign-in form: its CSRF token and the cookie that goes with it. */
export async function openSignIn(url: string, query = '') {
  const res = await request(url).get(`/account/sign-in${query}`);
  const csrf = hiddenValue(res.text, 'csrf_token');
  const cookie = cookiePair(setCookies(res).seo_signin_csrf);
  if (res.status !== 200 || !csrf || !cookie) throw new Error(`sign-in page: ${res.status}`);
  return { res, csrf, cookie };
}

/** Posts the sign-in form (urlencoded), with the form's cookie unless told otherwise. */
export function postSignIn(url: string, fields: Record<string, string>, cookie?: string) {
  const req = request(url).post('/account/sign-in').type('form');
  if (cookie) req.set('Cookie', cookie);
  return req.send(fields);
}

/** Signs in through the page form; the session cookie (`seo_session=...`). */
export async function pageSignIn(url: string, person: PagePerson): Promise<string> {
  const form = await openSignIn(url);
  const res = await postSignIn(
    url,
    { email: person.email, password: person.password, csrf_token: form.csrf },
    form.cookie,
  );
  const session = cookiePair(setCookies(res).seo_session);
  if (res.status !== 303 || !session) throw new Error(`page sign-in failed: ${res.status}`);
  return session;
}
