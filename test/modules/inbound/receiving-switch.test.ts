// "Receive mail" is refused where no mail could arrive: on a Herald that runs no inbound listener (INBOUND_SMTP_PORT
// unset), through the API and the Resend-compatible API alike, with what to do instead. Real DNS, a real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

describe('receiving without an inbound listener', () => {
  let m: MailFixture;
  let domain: Awaited<ReturnType<MailFixture['verifiedDomain']>>;

  beforeAll(async () => {
    m = await startMailFixture({ env: { INBOUND_SMTP_PORT: '' } });
    domain = await m.verifiedDomain('quiet.test');
  });
  afterAll(async () => {
    await m.close();
  });

  const receiving = async () =>
    (await m.t.app.inject({ method: 'GET', url: `/domains/${domain.domainId}`, headers: domain.auth })).json().data;

  it('refuses to turn receiving on with a 409 naming INBOUND_SMTP_PORT, and adds no MX record', async () => {
    const res = await m.t.app.inject({
      method: 'PATCH',
      url: `/domains/${domain.domainId}`,
      headers: domain.auth,
      payload: { receiving: true },
    });
    expect(res.statusCode, res.body).toBe(409);
    const { error } = res.json();
    expect(error.code).toBe('CONFLICT');
    expect(error.message).toBe('quiet.test cannot receive mail: this Herald runs no inbound mail listener');
    expect(error.suggestion).toMatch(/INBOUND_SMTP_PORT/);
    const after = await receiving();
    expect(after.receiving).toBe(false);
    expect(after.records.some((r: { purpose: string }) => r.purpose === 'INBOUND')).toBe(false);
    // Turning it off (already off) is no change, and answers 200.
    const off = await m.t.app.inject({
      method: 'PATCH',
      url: `/domains/${domain.domainId}`,
      headers: domain.auth,
      payload: { receiving: false },
    });
    expect(off.statusCode, off.body).toBe(200);
  });

  it('refuses it through the Resend-compatible API too', async () => {
    const res = await m.t.app.inject({
      method: 'PATCH',
      url: `/resend/domains/${domain.domainId}`,
      headers: domain.auth,
      payload: { capabilities: { receiving: 'enabled' } },
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toMatch(/runs no inbound mail listener/);
    expect((await receiving()).receiving).toBe(false);
  });
});
