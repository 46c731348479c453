// The registration-time half of the outbound guard: a URL the hub will call (an HTTP agent's, a
// webhook's) naming a refused address outright is refused when it is registered, as a 400 on the
// `url` field; names are judged again at every delivery (runtime/net).
import { InvalidParamsError } from '../../runtime/errors/index.js';
import { registrationRefusal, type OutboundGuard } from '../../runtime/net/index.js';

export function assertCallableUrl(guard: OutboundGuard, url: unknown): void {
  if (typeof url !== 'string') return;
  const refused = registrationRefusal(guard, url);
  if (refused !== undefined) throw new InvalidParamsError('url', `refused: ${refused.message}`);
}
