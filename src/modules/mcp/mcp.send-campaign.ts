// send_campaign, the one tool that mails a whole audience: it answers the recipient count first, with a confirmation
// (a signed token naming the campaign and that count, valid 15 minutes), and sends only when called again with
// `confirm: true` and that confirmation. So no single call can skip the preview, and a count that changed since the
// user saw it is shown again instead of being sent to.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { signToken, verifyToken } from '../../mail/links.ts';
import type { ApiAnswer, ApiCall } from './mcp.tools.ts';

export const CONFIRMATION_TTL_MS = 15 * 60_000;

export const SEND_CAMPAIGN = {
  name: 'send_campaign',
  description:
    'Send a DRAFT campaign to its audience, in two calls. The first (no confirm) ' +
    'sends nothing: it answers how many contacts the campaign would reach and a ' +
    'confirmation. Show the count to the user; once they agree, call again with ' +
    'confirm: true and that confirmation (valid 15 minutes).',
  input: {
    campaignId: z.string().min(1).max(100).describe("The campaign's id"),
    confirm: z.boolean().optional().describe('true only after the user saw the recipient count and agreed'),
    confirmation: z.string().max(1000).optional().describe('The confirmation the first call answered'),
  },
};

interface Claims {
  c: string;
  n: number;
  x: number;
}

/** Why `confirmation` does not confirm sending this campaign to `recipientCount` now; null when it does. */
function refusal(
  secret: string,
  confirmation: string | undefined,
  campaignId: string,
  recipientCount: number,
): string | null {
  if (!confirmation) return 'Sending needs the confirmation of a first call without confirm.';
  const claims = verifyToken(secret, 'campaign-send', confirmation) as Partial<Claims> | null;
  if (!claims || claims.c !== campaignId || typeof claims.n !== 'number' || typeof claims.x !== 'number')
    return 'That confirmation is not one of this campaign.';
  if (claims.x <= Date.now()) return 'That confirmation has expired.';
  if (claims.n !== recipientCount)
    return `The audience changed since the user saw it (${claims.n} then, ${recipientCount} now).`;
  return null;
}

type Reply = (value: unknown, isError?: boolean) => CallToolResult;

/** The tool's handler, calling the API with the agent's key; `secret` signs the confirmations. */
export function sendCampaignTool(opts: {
  api: ApiCall;
  secret: string;
  reply: Reply;
  resultOf: (answer: ApiAnswer) => CallToolResult;
}) {
  return async ({
    campaignId,
    confirm,
    confirmation,
  }: {
    campaignId: string;
    confirm?: boolean | undefined;
    confirmation?: string | undefined;
  }): Promise<CallToolResult> => {
    const url = `/campaigns/${encodeURIComponent(campaignId)}`;
    const campaign = await opts.api({ method: 'GET', url });
    if (campaign.status >= 300) return opts.resultOf(campaign);
    const { id, recipientCount, status, name } = (
      campaign.body as { data: { id: string; recipientCount: number; status: string; name: string } }
    ).data;
    const problem = confirm === true ? refusal(opts.secret, confirmation, id, recipientCount) : null;
    if (confirm !== true || problem) {
      const token = signToken(opts.secret, 'campaign-send', {
        c: id,
        n: recipientCount,
        x: Date.now() + CONFIRMATION_TTL_MS,
      } satisfies Claims);
      const next =
        `This would send "${name}" to ${recipientCount} contacts. Ask the ` +
        `user to confirm, then call send_campaign again with confirm: true ` +
        `and this confirmation.`;
      return opts.reply(
        {
          sent: false,
          campaign: name,
          status,
          recipientCount,
          confirmation: token,
          next: problem ? `${problem} ${next}` : next,
        },
        true,
      );
    }
    const sent = await opts.api({ method: 'POST', url: `${url}/send`, body: {} });
    return sent.status < 300
      ? opts.reply({
          sent: true,
          campaign: name,
          recipientCount,
          ...((sent.body as { data?: object } | null)?.data ?? {}),
        })
      : opts.resultOf(sent);
  };
}
