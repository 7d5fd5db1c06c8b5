// A contact's language through the contacts API and imports: set in canonical case, kept when a write leaves it out,
// cleared by null, a 422 naming the field for a tag that is no language (an import counts the row as rejected).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectValidation } from '../../support/envelope.ts';
import { until } from '../../support/until.ts';

type Auth = { authorization: string };

interface ContactView {
  id: string;
  email: string;
  locale: string | null;
  data: Record<string, unknown>;
  updatedAt: string;
}

describe('contact locale', () => {
  let t: TestApp;
  let auth: Auth;

  const post = (payload: object) => t.app.inject({ method: 'POST', url: '/contacts', headers: auth, payload });
  const patch = (id: string, payload: object) =>
    t.app.inject({ method: 'PATCH', url: `/contacts/${id}`, headers: auth, payload });
  const get = async (id: string) =>
    (await t.app.inject({ method: 'GET', url: `/contacts/${id}`, headers: auth })).json().data as ContactView;
  const byEmail = async (email: string) =>
    (await t.app.inject({ method: 'GET', url: `/contacts?email=${email}`, headers: auth })).json().data.items[0] as
      | ContactView
      | undefined;
  const runImport = async (payload: string | unknown[]) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/contacts/import',
      headers: { ...auth, 'content-type': typeof payload === 'string' ? 'text/csv' : 'application/json' },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data.id as string;
    return until(
      async () => {
        const view = (await t.app.inject({ method: 'GET', url: `/contacts/import/${id}`, headers: auth })).json()
          .data as { status: string; created: number; updated: number; rejected: number; errors: unknown[] };
        return view.status === 'completed' && view;
      },
      `import ${id} to finish`,
      30_000,
      50,
    );
  };

  beforeAll(async () => {
    t = await createTestApp({ worker: true });
    auth = (await t.createProject()).auth;
  });
  afterAll(() => t.close());

  it('is null for a contact created without one', async () => {
    const res = await post({ email: 'none@example.com' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.locale).toBeNull();
  });

  it('is stored in canonical case, kept by writes that leave it out, changed by PATCH, cleared by null', async () => {
    const created = await post({ email: 'ana@example.com', locale: 'pt-br' });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json().data as ContactView;
    expect((await get(id)).locale).toBe('pt-BR');

    const upserted = await post({ email: 'ana@example.com', data: { plan: 'pro' } });
    expect(upserted.statusCode).toBe(200);
    expect(upserted.json().data).toMatchObject({ locale: 'pt-BR', data: { plan: 'pro' } });
    expect((await patch(id, { subscribed: false })).json().data.locale).toBe('pt-BR');

    const before = await get(id);
    const changed = await patch(id, { locale: 'ZH-hant-tw' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.locale).toBe('zh-Hant-TW');
    // A change of the locale alone is a change of the contact.
    expect(Date.parse(changed.json().data.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));

    // The same tag again changes nothing.
    const same = await patch(id, { locale: 'zh-Hant-TW' });
    expect(same.json().data.updatedAt).toBe(changed.json().data.updatedAt);

    const cleared = await patch(id, { locale: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().data.locale).toBeNull();
    expect((await get(id)).locale).toBeNull();

    const viaUpsert = await post({ email: 'ana@example.com', locale: 'de' });
    expect(viaUpsert.json().data.locale).toBe('de');
    expect((await post({ email: 'ana@example.com', locale: null })).json().data.locale).toBeNull();
  });

  it('answers a tag that is no language with a 422 naming the field, and changes nothing', async () => {
    const { id } = (await post({ email: 'bad@example.com', locale: 'fr' })).json().data as ContactView;
    for (const locale of ['xx-INVALID', 'en_US', 'english', '', 42]) {
      const body = expectValidation(await post({ email: 'bad@example.com', locale }), 'locale');
      expect(body.error.errors?.find((e) => e.field === 'locale')?.message).toBeTruthy();
      expectValidation(await patch(id, { locale }), 'locale');
    }
    expect((await get(id)).locale).toBe('fr');
  });

  it('imports a CSV locale column (an empty cell keeps the contact’s), rejecting rows with a bad tag', async () => {
    await post({ email: 'kept@example.com', locale: 'nl' });
    const csv = [
      'email,Locale,name',
      'csv-a@example.com,de-ch,Anna',
      'kept@example.com,,Kees',
      'csv-bad@example.com,xx-INVALID,Bad',
      'csv-none@example.com,,None',
    ].join('\n');
    const view = await runImport(csv);
    expect(view).toMatchObject({ created: 2, updated: 1, rejected: 1 });
    expect(view.errors).toEqual([{ row: 3, email: 'csv-bad@example.com', reason: expect.stringMatching(/^locale: /) }]);
    expect(await byEmail('csv-a@example.com')).toMatchObject({ locale: 'de-CH', data: { name: 'Anna' } });
    // The column is the contact's locale, not a key of its data.
    expect((await byEmail('csv-a@example.com'))!.data).not.toHaveProperty('Locale');
    expect(await byEmail('kept@example.com')).toMatchObject({ locale: 'nl', data: { name: 'Kees' } });
    expect((await byEmail('csv-none@example.com'))!.locale).toBeNull();
    expect(await byEmail('csv-bad@example.com')).toBeUndefined();
  });

  it('imports JSON rows’ locale: set, cleared by null, a bad tag rejects its row; the last given wins', async () => {
    await post({ email: 'json-clear@example.com', locale: 'it' });
    const view = await runImport([
      { email: 'json-a@example.com', locale: 'es-mx' },
      { email: 'json-clear@example.com', locale: null },
      { email: 'json-bad@example.com', locale: 'xx-INVALID' },
      { email: 'json-twice@example.com', locale: 'fr' },
      { email: 'json-twice@example.com', locale: 'fr-CA' },
      { email: 'json-twice@example.com', data: { n: 1 } },
    ]);
    // Rows folded into an earlier one of the same address count as updates.
    expect(view).toMatchObject({ created: 2, updated: 3, rejected: 1 });
    expect(view.errors).toEqual([
      { row: 3, email: 'json-bad@example.com', reason: expect.stringMatching(/^locale: /) },
    ]);
    expect((await byEmail('json-a@example.com'))!.locale).toBe('es-MX');
    expect((await byEmail('json-clear@example.com'))!.locale).toBeNull();
    expect(await byEmail('json-twice@example.com')).toMatchObject({ locale: 'fr-CA', data: { n: 1 } });
  });
});
