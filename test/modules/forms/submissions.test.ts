// Submissions of signup forms, as browsers (urlencoded) and scripts (JSON) post them, and the abuse they must
// withstand: a bot filling the honeypot, 1,000 posts from one address, replayed and forged proof-of-work solutions,
// a form trying to change an existing contact's data or to resubscribe someone who unsubscribed (only the double
// opt-in email may: its link is followed from a real SMTP sink).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { simpleParser } from 'mailparser';
import { newChallenge, powSecrets } from '../../../src/modules/forms/forms.pow.ts';
import { expectError, expectValidation } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

type Auth = { authorization: string };
const email = { key: 'email', label: 'Email', type: 'email' };
const urlencoded = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,application/xhtml+xml' };
let lastAddress = 0;
/** A client address of its own for each test, so their submissions never share a rate-limit bucket. */
const nextAddress = () => `198.51.100.${++lastAddress}`;

describe('form submissions', () => {
  let m: MailFixture;
  let auth: Auth;
  let topic: string;
  let list: string;
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const createForm = async (body: object) => {
    const res = await call('POST', '/forms', { name: 'Signup', fields: [email], ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string };
  };
  const contactOf = async (address: string) =>
    (await call('GET', `/contacts?email=${encodeURIComponent(address)}`)).json().data.items[0] as
      | { id: string; subscribed: boolean; data: Record<string, unknown>; locale: string | null }
      | undefined;
  const ledgerOf = async (id: string) =>
    (await call('GET', `/contacts/${id}/consent`)).json().data as {
      action: string;
      source: { type: string; id?: string };
      topicId?: string;
      ip?: string;
      userAgent?: string;
      text?: string;
    }[];
  const formOf = async (id: string) =>
    (await call('GET', `/forms/${id}`)).json().data as { submissions: number; confirmed: number; spam: number };
  const post = (id: string, body: Record<string, string>, remoteAddress = nextAddress(), headers = {}) =>
    m.t.app.inject({
      method: 'POST',
      url: `/f/${id}`,
      remoteAddress,
      headers: { ...urlencoded, ...headers },
      payload: new URLSearchParams(body).toString(),
    });
  const postJson = (id: string, body: object, remoteAddress = nextAddress()) =>
    m.t.app.inject({ method: 'POST', url: `/f/${id}`, remoteAddress, payload: body as Record<string, unknown> });
  /** A solved challenge of the form, as the widget posts it in the field `altcha`. */
  const solved = async (id: string) => {
    const challenge = (await m.t.app.inject({ method: 'GET', url: `/f/${id}/challenge` })).json();
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  };

  beforeAll(async () => {
    m = await startMailFixture();
    const sender = await m.verifiedDomain('forms.test');
    auth = sender.auth;
    topic = (await call('POST', '/topics', { name: 'News', defaultSubscription: 'OPT_IN' })).json().data.id;
    list = (await call('POST', '/segments', { name: 'Signups', type: 'STATIC' })).json().data.id;
    const template = await call('POST', '/templates', {
      name: 'Confirm',
      subject: 'Confirm your address',
      body: '<p><a href="{{confirmUrl}}">Confirm</a></p>',
      type: 'MARKETING',
      from: 'hello@forms.test',
    });
    expect(
      (await call('PATCH', '/settings', { doubleOptIn: { templateId: template.json().data.id } })).statusCode,
    ).toBe(200);
  });
  afterAll(() => m.close());

  it('a browser post creates the contact with its data, topic and list, and is sent to the success page', async () => {
    const form = await createForm({
      fields: [email, { key: 'name', label: 'Name', type: 'text' }, { key: 'terms', label: 'OK', type: 'checkbox' }],
      topicIds: [topic],
      segmentId: list,
      successMessage: 'Welcome <aboard>',
      consentText: 'Yes, send me the monthly news',
    });
    const address = nextAddress();
    const res = await post(form.id, { email: 'Ann@Forms.test', name: 'Ann', terms: 'yes' }, address, {
      'accept-language': 'pt-BR,pt;q=0.8',
      'user-agent': 'Mozilla/5.0 (signup)',
    });
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`/f/${form.id}/done`);
    const done = await m.t.app.inject({ method: 'GET', url: String(res.headers.location) });
    expect(done.body).toContain('Welcome &#60;aboard&#62;');
    const ann = (await contactOf('ann@forms.test'))!;
    expect(ann).toMatchObject({ subscribed: true, data: { name: 'Ann', terms: true }, locale: 'pt-BR' });
    expect((await call('GET', `/contacts/${ann.id}/topics`)).json().data).toEqual([
      expect.objectContaining({ topicId: topic, subscribed: true }),
    ]);
    expect(
      (await call('GET', `/segments/${list}/contacts`)).json().data.items.map((c: { id: string }) => c.id),
    ).toContain(ann.id);
    expect(await formOf(form.id)).toMatchObject({ submissions: 1, confirmed: 0, spam: 0 });
    // The consent ledger proves it: the form, the client and the wording agreed to, for the signup and the topic.
    const proof = { source: { type: 'form', id: form.id }, ip: address, userAgent: 'Mozilla/5.0 (signup)' };
    expect(await ledgerOf(ann.id)).toEqual([
      { at: expect.any(String), action: 'subscribed', ...proof, text: 'Yes, send me the monthly news' },
      { at: expect.any(String), action: 'topic_in', topicId: topic, ...proof, text: 'Yes, send me the monthly news' },
    ]);
  });

  it("a JSON post gets 200 and the redirect to follow; the form's locale seeds the new contact's", async () => {
    const form = await createForm({ redirectUrl: 'https://example.com/thanks', locale: 'nl' });
    const res = await postJson(form.id, { email: 'bob@forms.test' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: { message: 'Subscribed', redirectUrl: 'https://example.com/thanks' },
    });
    expect((await contactOf('bob@forms.test'))!.locale).toBe('nl');
    const browser = await post(form.id, { email: 'cy@forms.test' });
    expect(browser.statusCode).toBe(303);
    expect(browser.headers.location).toBe('https://example.com/thanks');
  });

  it('bad input: the form again with its messages for a browser, the 422 envelope for JSON and scripts', async () => {
    const form = await createForm({
      fields: [email, { key: 'plan', label: 'Plan', type: 'select', options: ['free', 'pro'], required: true }],
    });
    const page = await post(form.id, { email: 'not an address', plan: 'gold' });
    expect(page.statusCode).toBe(422);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Enter a valid email address.');
    expect(page.body).toContain('Choose one of the options.');
    expect(page.body).toContain('value="not an address"');
    const json = await postJson(form.id, { email: 'x@forms.test' });
    expectValidation(json, 'plan');
    const script = await m.t.app.inject({
      method: 'POST',
      url: `/f/${form.id}`,
      remoteAddress: nextAddress(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=',
    });
    expectValidation(script, 'email');
    expect(await contactOf('x@forms.test')).toBeUndefined();
    expect((await formOf(form.id)).submissions).toBe(0);
  });

  it('a bot filling the honeypot is told it worked, and nothing is kept but the spam count', async () => {
    const form = await createForm({ topicIds: [topic] });
    const res = await post(form.id, { email: 'bot@forms.test', hp_website: 'http://spam.example' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/f/${form.id}/done`);
    const json = await postJson(form.id, { email: 'bot2@forms.test', hp_website: 'x' });
    expect(json.statusCode).toBe(200);
    expect(await contactOf('bot@forms.test')).toBeUndefined();
    expect(await contactOf('bot2@forms.test')).toBeUndefined();
    expect(await formOf(form.id)).toMatchObject({ submissions: 0, spam: 2 });
  });

  it('1,000 submissions from one address: only 10 a minute are taken, the rest get 429', async () => {
    const form = await createForm({});
    const address = nextAddress();
    const minuteAtStart = Math.floor(Date.now() / 60_000);
    const statuses: number[] = [];
    for (let i = 0; i < 1000; i++)
      statuses.push((await postJson(form.id, { email: `flood${i}@forms.test` }, address)).statusCode);
    const windows = Math.floor(Date.now() / 60_000) - minuteAtStart + 1;
    const accepted = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    // The first ten of the run are taken; past that one more ten for each new minute the run reached.
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(accepted).toBeLessThanOrEqual(10 * windows);
    if (windows === 1) expect(accepted).toBe(10);
    expect((await formOf(form.id)).submissions).toBe(accepted);
    expectError(await postJson(form.id, { email: 'late@forms.test' }, address), 429, 'RATE_LIMIT_EXCEEDED');
    // Another address is not held back.
    expect((await postJson(form.id, { email: 'other@forms.test' })).statusCode).toBe(200);
  }, 120_000);

  it('proof of work: a solved challenge is taken once; a replay, a forgery or none is refused', async () => {
    const form = await createForm({ captcha: 'pow' });
    const other = await createForm({ captcha: 'pow' });
    const altcha = await solved(form.id);
    expect((await postJson(form.id, { email: 'pow1@forms.test', altcha })).statusCode).toBe(200);
    // The same solution again: refused, nothing written.
    expectValidation(await postJson(form.id, { email: 'pow2@forms.test', altcha }), 'altcha');
    expect(await contactOf('pow2@forms.test')).toBeUndefined();
    // None, garbage, another form's, a wrong answer, and a challenge signed with another secret.
    expectValidation(await postJson(form.id, { email: 'pow3@forms.test' }), 'altcha');
    expectValidation(await postJson(form.id, { email: 'pow3@forms.test', altcha: 'bm9wZQ==' }), 'altcha');
    expectValidation(await postJson(form.id, { email: 'pow3@forms.test', altcha: await solved(other.id) }), 'altcha');
    const decoded = JSON.parse(Buffer.from(await solved(form.id), 'base64').toString());
    // The key the work finds, guessed: its first half is in the challenge, the rest only the work gives.
    const key = decoded.solution.derivedKey as string;
    decoded.solution.derivedKey = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
    const wrong = Buffer.from(JSON.stringify(decoded)).toString('base64');
    expectValidation(await postJson(form.id, { email: 'pow3@forms.test', altcha: wrong }), 'altcha');
    const foreign = await newChallenge(powSecrets('another-secret-0123456789abcdefghijklmnop'), form.id);
    const foreignSolution = await solveChallenge({ challenge: foreign, deriveKey });
    const forged = Buffer.from(JSON.stringify({ challenge: foreign, solution: foreignSolution })).toString('base64');
    expectValidation(await postJson(form.id, { email: 'pow3@forms.test', altcha: forged }), 'altcha');
    expect(await contactOf('pow3@forms.test')).toBeUndefined();
    // A browser sees the form again with the message.
    const page = await post(form.id, { email: 'pow4@forms.test', altcha: 'forged' });
    expect(page.statusCode).toBe(422);
    expect(page.body).toContain('The check that you are a person failed');
  });

  it("an existing contact keeps its data and subscription; it only gains the form's topic and list", async () => {
    const made = await call('POST', '/contacts', { email: 'dee@forms.test', data: { name: 'Dee' }, locale: 'en' });
    const dee = made.json().data;
    await call('PATCH', `/contacts/${dee.id}`, { subscribed: false });
    const form = await createForm({
      fields: [email, { key: 'name', label: 'Name', type: 'text' }],
      topicIds: [topic],
      segmentId: list,
      locale: 'de',
    });
    const res = await post(form.id, { email: 'DEE@forms.test', name: 'Mallory' });
    expect(res.statusCode).toBe(303);
    expect(await contactOf('dee@forms.test')).toMatchObject({ subscribed: false, data: { name: 'Dee' }, locale: 'en' });
    expect((await call('GET', `/contacts/${dee.id}/topics`)).json().data).toEqual([
      expect.objectContaining({ topicId: topic, subscribed: true }),
    ]);
    const members = (await call('GET', `/segments/${list}/contacts`))
      .json()
      .data.items.map((c: { id: string }) => c.id);
    expect(members).toContain(dee.id);
  });

  it('double opt-in: the email at the SMTP sink resubscribes an unsubscribed contact once confirmed', async () => {
    const made = await call('POST', '/contacts', { email: 'eve@forms.test', subscribed: false, data: { plan: 'pro' } });
    const eve = made.json().data;
    const form = await createForm({ doubleOptIn: true, fields: [email, { key: 'plan', label: 'Plan', type: 'text' }] });
    const res = await post(form.id, { email: 'eve@forms.test', plan: 'free' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/f/${form.id}/done?confirm=1`);
    const done = await m.t.app.inject({ method: 'GET', url: String(res.headers.location) });
    expect(done.body).toContain('confirm your subscription');
    expect(await contactOf('eve@forms.test')).toMatchObject({ subscribed: false, data: { plan: 'pro' } });
    // A new address too is kept unsubscribed until it confirms.
    expect((await postJson(form.id, { email: 'fay@forms.test' })).json().data.message).toBe(
      'Check your inbox to confirm',
    );
    expect((await contactOf('fay@forms.test'))!.subscribed).toBe(false);
    expect(await formOf(form.id)).toMatchObject({ submissions: 2, confirmed: 0 });

    const [message] = (await m.sink.waitForMessages(2)).filter((msg) => msg.to.includes('eve@forms.test'));
    const parsed = await simpleParser(message!.raw);
    const url = /href="(https:\/\/mail\.herald\.test\/confirm\/[^"]+)"/.exec(String(parsed.html))![1]!;
    const path = new URL(url).pathname;
    const confirmed = await m.t.app.inject({
      method: 'POST',
      url: path,
      headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await contactOf('eve@forms.test')).toMatchObject({ subscribed: true, data: { plan: 'pro' } });
    expect(eve.id).toBe((await contactOf('eve@forms.test'))!.id);
    expect(await formOf(form.id)).toMatchObject({ submissions: 2, confirmed: 1 });
    // The unsubscribed contact's way back in: the confirmation, recorded with the form as its source.
    expect((await ledgerOf(eve.id)).map((e) => `${e.action} ${e.source.type} ${e.source.id ?? ''}`)).toEqual([
      `confirmed form ${form.id}`,
      `subscribed form ${form.id}`,
    ]);
  });
});
