// Access grants in GET /openapi.json (routes.ts): the requests' view, the filters the list reads
// and the bodies the handlers accept (unknown fields are 400). Approve and deny read no fields.
import { z } from 'zod';
import { ACCESS_REQUEST_ID, ACCESS_STATUSES } from '../../infra/db/index.js';
import type { RouteDoc } from '../http/index.js';

const key = { tags: ['Access'], auth: 'key' } as const;
const iso = z.iso.datetime({ offset: true });
const Status = z.enum(ACCESS_STATUSES as ['pending', 'approved', 'denied']);

const AccessRequestView = z.object({
  requestId: z.string().regex(ACCESS_REQUEST_ID),
  requesterAgentId: z.string(),
  requesterTenantId: z.string(),
  targetAgentId: z.string(),
  status: Status,
  message: z.string(),
  createdAt: iso,
  decidedAt: iso.nullable(),
});
const One = z.object({ request: AccessRequestView });

export const accessDocs = {
  requestAccess: {
    ...key,
    summary: "Ask to message another tenant's private agent (an agent key)",
    description:
      'An unknown agent answers as a pending request does (202): only an approval tells the ' +
      'requester that the agent exists. A refused request is asked again as pending.',
    body: z.strictObject({ message: z.string().max(500).nullish() }),
    responses: {
      200: { description: 'Approved (the agent approves every request)', schema: One },
      202: { description: 'Pending the owner\u2019s decision', schema: One },
    },
    errors: [403, 409],
  },
  listAccessRequests: {
    ...key,
    summary: "The requests to the tenant's agents (an agent key: to itself only), newest first",
    query: z.strictObject({ status: Status.optional(), agentId: z.string().optional() }),
    responses: {
      200: z.object({ requests: z.array(AccessRequestView), count: z.number().int().min(0) }),
    },
  },
  approveAccess: {
    ...key,
    summary: 'Approve a request (the target agent or its tenant admin)',
    body: z.strictObject({}),
    responses: { 200: One },
    errors: [404],
  },
  denyAccess: {
    ...key,
    summary: 'Deny a request (the target agent or its tenant admin)',
    body: z.strictObject({}),
    responses: { 200: One },
    errors: [404],
  },
  getAccessSettings: {
    ...key,
    summary: 'Whether an agent approves every access request at once',
    responses: { 200: z.object({ agentId: z.string(), autoApprove: z.boolean() }) },
    errors: [404],
  },
  setAccessSettings: {
    ...key,
    summary: 'Turn auto-approve on (approving what is pending) or off',
    body: z.strictObject({ autoApprove: z.boolean() }),
    responses: {
      200: z.object({
        agentId: z.string(),
        autoApprove: z.boolean(),
        approved: z.number().int().min(0).describe('Pending requests approved by this change'),
      }),
    },
    errors: [404],
  },
} satisfies Record<string, RouteDoc>;
