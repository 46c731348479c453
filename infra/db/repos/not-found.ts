// The not-found errors the identity repos throw, worded once.
import { HubError } from '../../../runtime/errors/index.js';

export function agentNotFound(agentId: string): HubError {
  return new HubError('AGENT_NOT_FOUND', `agent ${agentId} not found`, { data: { agentId } });
}

export function tenantNotFound(tenant: string): HubError {
  return new HubError('NOT_FOUND', `tenant ${tenant} not found`, { data: { field: 'tenant' } });
}
