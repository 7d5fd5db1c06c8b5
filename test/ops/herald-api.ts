/**
 * Herald's HTTP API as the operations tests use it: a running instance they did not start in-process (a container,
 * a compose stack, a previous release's build).
 *
 *   const api = heraldApi('http://127.0.0.1:3999');
 *   const auth = await api.projectWithDomain(dns, 'ops.test');
 *   const id = await api.campaignTo(auth, recipients, 'news@ops.test');
 */
import { until } from '../support/until.ts';
import { publishDomainRecords, type TestDnsServer } from '../support/dns-server.ts';

export interface HeraldApi {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  call(method: string, path: string, payload?: unknown, auth?: string): Promise<{ status: number; body: any }>;
  /** A new project (through the admin API) with `domain` verified through `dns`: its secret key as a header. */
  projectWithDomain(dns: Pick<TestDnsServer, 'setRecords'>, domain: string): Promise<string>;
  /** Imports `emails` as contacts and waits until the import completed. */
  importContacts(auth: string, emails: string[]): Promise<void>;
  /** Creates a campaign to every contact and sends it: its id. */
  sendCampaign(auth: string, from: string): Promise<string>;
  campaignStatus(auth: string, id: string): Promise<string>;
}

export function heraldApi(base: string, adminToken: string): HeraldApi {
  const api: HeraldApi = {
    async call(method, path, payload, auth) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: auth ?? `Bearer ${adminToken}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    async projectWithDomain(dns, domain) {
      const project = await api.call('POST', '/admin/projects', { name: domain });
      if (project.status !== 201) throw new Error(`create project: ${JSON.stringify(project.body)}`);
      const auth = `Bearer ${project.body.data.secretKey}`;
      const created = (await api.call('POST', '/domains', { domain }, auth)).body.data;
      publishDomainRecords(dns, created.records);
      const verified = await api.call('POST', `/domains/${created.id}/verify`, undefined, auth);
      if (verified.body?.data?.status !== 'VERIFIED')
        throw new Error(`verify ${domain}: ${JSON.stringify(verified.body)}`);
      return auth;
    },
    async importContacts(auth, emails) {
      const upload = await api.call(
        'POST',
        '/contacts/import',
        emails.map((email, n) => ({ email, data: { n } })),
        auth,
      );
      if (upload.status !== 202) throw new Error(`import: ${JSON.stringify(upload.body)}`);
      await until(
        async () =>
          (await api.call('GET', `/contacts/import/${upload.body.data.id}`, undefined, auth)).body.data.status ===
          'completed',
        'the import',
        180_000,
        250,
      );
    },
    async sendCampaign(auth, from) {
      const created = await api.call(
        'POST',
        '/campaigns',
        {
          name: 'operations',
          subject: 'Hello {{n}}',
          body: '<p>Number {{n}}</p><a href="{{unsubscribeUrl}}">unsubscribe</a>',
          from,
          audienceType: 'ALL',
        },
        auth,
      );
      if (created.status !== 201) throw new Error(`campaign: ${JSON.stringify(created.body)}`);
      const id = created.body.data.id as string;
      const sent = await api.call('POST', `/campaigns/${id}/send`, undefined, auth);
      if (sent.status !== 202) throw new Error(`send: ${JSON.stringify(sent.body)}`);
      return id;
    },
    async campaignStatus(auth, id) {
      return (await api.call('GET', `/campaigns/${id}`, undefined, auth)).body.data.status as string;
    },
  };
  return api;
}
