// The send-side check of spending budgets (issue 28). A send is refused while a budget of its
// sender's tenant or of the sender itself is used up (spent ≥ limit: any further spend would
// exceed it). Spends themselves are checked exactly, in the debit's transaction (spending.repo);
// here only the used-up budgets of a tenant are kept, per node, for TTL_MS — a send of a known
// tenant costs a Map probe, no query. The spending.threshold event a crossing publishes (and a
// budget change, on hub.spending.changed) drops the tenant's entry on every node at once.
import type { Subscription } from '@nats-io/nats-core';
import {
  listBudgets,
  spendingLimitError,
  type Budget,
  type Queryable,
} from '../../infra/db/index.js';
import { subjects, type Bus } from '../../runtime/bus/index.js';

const TTL_MS = 10_000;

interface Entry {
  at: number;
  exhausted: Budget[];
}

export class SpendingGate {
  private readonly tenants = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Budget[]>>();
  private subs: Subscription[] = [];
  private generation = 0;

  constructor(
    private readonly sql: Queryable,
    private readonly bus: Pick<Bus, 'nc'>,
    private readonly ttlMs = TTL_MS
  ) {}

  start(): void {
    const drop = (subject: string): void => {
      // hubev.<tenant>.spending_threshold, or hub.spending.changed.<tenant>
      const parts = subject.split('.');
      const tenant = subject.startsWith('hubev.') ? parts[1] : parts[parts.length - 1];
      if (tenant !== undefined) this.invalidate(tenant);
    };
    this.subs = [
      this.bus.nc.subscribe('hubev.*.spending_threshold', { callback: (_e, m) => drop(m.subject) }),
      this.bus.nc.subscribe(subjects.spendingChanged('*'), {
        callback: (_e, m) => drop(m.subject),
      }),
    ];
  }

  stop(): void {
    for (const s of this.subs) s.unsubscribe();
    this.subs = [];
  }

  invalidate(tenantId: string): void {
    this.generation++;
    this.tenants.delete(tenantId);
    this.loading.delete(tenantId);
  }

  /** Tell every node (this one included) that a tenant's budgets changed. */
  announce(tenantId: string): void {
    this.invalidate(tenantId);
    this.bus.nc.publish(subjects.spendingChanged(tenantId));
  }

  /**
   * Undefined when the send may go (synchronously, for a tenant known here); a promise otherwise,
   * rejecting with SPENDING_LIMIT_EXCEEDED naming the used-up budget.
   */
  check(tenantId: string, agentId: string): Promise<void> | undefined {
    const hit = this.tenants.get(tenantId);
    if (hit !== undefined && Date.now() - hit.at < this.ttlMs) {
      refuse(hit.exhausted, agentId);
      return undefined;
    }
    return this.load(tenantId).then((exhausted) => refuse(exhausted, agentId));
  }

  private load(tenantId: string): Promise<Budget[]> {
    const pending = this.loading.get(tenantId);
    if (pending) return pending;
    const started = this.generation;
    const at = Date.now();
    const p = listBudgets(this.sql, tenantId, { exhaustedOnly: true }).finally(() => {
      if (this.loading.get(tenantId) === p) this.loading.delete(tenantId);
    });
    void p.then(
      (exhausted) => {
        if (this.generation === started) this.tenants.set(tenantId, { at, exhausted });
      },
      () => undefined
    );
    this.loading.set(tenantId, p);
    return p;
  }
}

function refuse(exhausted: readonly Budget[], agentId: string): void {
  for (const b of exhausted) {
    if (b.agentId === null || b.agentId === agentId) throw spendingLimitError(b, 0);
  }
}
