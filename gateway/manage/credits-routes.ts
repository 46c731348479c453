// Credits of the admin key's tenant (issue 6, decisions.md §5): GET /api/credits (balance,
// threshold, recent ledger), POST /api/credits/purchase, PUT /api/credits/threshold. Amounts are
// integer minor units (cents of `currency`), never fractions.
import {
  getCreditAccount,
  listLedger,
  purchaseCredits,
  setLowBalanceThreshold,
  type CreditAccount,
  type Queryable,
} from '../../infra/db/index.js';
import type { Authenticator } from '../auth/index.js';
import { jsonReply, parseBody } from '../http/index.js';
import type { RouteRegistrar } from '../routes/index.js';
import { requireAdmin } from './agents-admin-routes.js';
import { manageDocs as docs } from './route-docs.js';
import type { OutboxRelay } from './outbox-relay.js';

export interface CreditsRoutesDeps {
  readonly sql: Queryable;
  readonly auth: Pick<Authenticator, 'authenticate'>;
  /** Publishes the events a change wrote to the outbox. */
  readonly relay: Pick<OutboxRelay, 'kick'>;
}

export function creditsView(a: CreditAccount) {
  return {
    tenantId: a.tenantId,
    balance: a.balance,
    currency: a.currency,
    lowBalanceThreshold: a.lowBalanceThreshold,
    belowThreshold: a.belowThreshold,
  };
}

export function creditsRoutes(d: CreditsRoutesDeps): RouteRegistrar {
  return (table) => {
    table.add({
      method: 'GET',
      pattern: '/api/credits',
      doc: docs.credits,
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        const [account, ledger] = await Promise.all([
          getCreditAccount(d.sql, tenantId),
          listLedger(d.sql, tenantId),
        ]);
        return jsonReply(200, {
          ...creditsView(account),
          ledger: ledger.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })),
        });
      },
    });
    table.add({
      method: 'POST',
      pattern: '/api/credits/purchase',
      doc: docs.purchase,
      body: true,
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        const body = parseBody(docs.purchase.body, await req.body);
        const change = await purchaseCredits(d.sql, tenantId, body.amount, body.reason ?? '');
        d.relay.kick();
        return jsonReply(200, creditsView(change.account));
      },
    });
    table.add({
      method: 'PUT',
      pattern: '/api/credits/threshold',
      doc: docs.threshold,
      body: true,
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        const body = parseBody(docs.threshold.body, await req.body);
        const change = await setLowBalanceThreshold(d.sql, tenantId, body.threshold);
        d.relay.kick();
        return jsonReply(200, creditsView(change.account));
      },
    });
  };
}
