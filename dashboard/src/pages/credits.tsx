// Alerts and credits: GET /api/alerts, the balance and ledger (GET /api/credits), purchases
// (POST /api/credits/purchase) and the low-balance threshold (PUT /api/credits/threshold).
// Amounts are integer minor units of the account's currency, as the API takes them.
import { useState } from 'preact/hooks';
import { call, get } from '../api';
import { Busy, ErrorNotice } from '../parts/notice';
import { useAction, useLoad } from '../parts/use-load';

interface Credits {
  balance: number;
  currency: string;
  lowBalanceThreshold: number | null;
  belowThreshold: boolean;
  ledger: Array<{
    id?: string | number;
    amount: number;
    balanceAfter?: number;
    kind: string;
    reason: string;
    createdAt: string;
  }>;
}
interface Alert {
  type: string;
  severity: string;
  message: string;
}

const money = (minor: number, currency: string) => `${(minor / 100).toFixed(2)} ${currency}`;

export function CreditsPage() {
  const alerts = useLoad(() => get<{ alerts: Alert[] }>('/api/alerts'), []);
  const credits = useLoad(() => get<Credits>('/api/credits'), []);
  const [amount, setAmount] = useState('');
  const [threshold, setThreshold] = useState('');
  const act = useAction();
  const c = credits.data;
  const purchase = (e: Event) => {
    e.preventDefault();
    void act.run(async () => {
      await call('POST', '/api/credits/purchase', {
        amount: Number(amount),
        reason: 'dashboard purchase',
      });
      setAmount('');
      credits.reload();
    });
  };
  const setLimit = (e: Event) => {
    e.preventDefault();
    void act.run(async () => {
      await call('PUT', '/api/credits/threshold', {
        threshold: threshold === '' ? null : Number(threshold),
      });
      credits.reload();
      alerts.reload();
    });
  };
  return (
    <section aria-labelledby="credits-h">
      <h1 id="credits-h">Alerts and credits</h1>
      <h2>Current alerts</h2>
      <ErrorNotice error={alerts.error} />
      {alerts.data?.alerts.length === 0 ? <p>No alerts: all is well.</p> : null}
      <ul class="alerts">
        {alerts.data?.alerts.map((a, i) => (
          <li key={i} class={`alert ${a.severity}`}>
            <strong>{a.severity}</strong> {a.type}: {a.message}
          </li>
        ))}
      </ul>
      <h2>Credits</h2>
      <ErrorNotice error={credits.error} />
      {c ? (
        <dl class="cards">
          <div>
            <dt>Balance</dt>
            <dd data-testid="balance">{money(c.balance, c.currency)}</dd>
          </div>
          <div>
            <dt>Low-balance threshold</dt>
            <dd>
              {c.lowBalanceThreshold === null ? 'none' : money(c.lowBalanceThreshold, c.currency)}
            </dd>
          </div>
          <div>
            <dt>Below threshold</dt>
            <dd>{c.belowThreshold ? 'yes' : 'no'}</dd>
          </div>
        </dl>
      ) : null}
      <div class="two">
        <form class="panel" onSubmit={purchase} aria-label="Buy credits">
          <label>
            Buy credits (minor units, e.g. cents)
            <input
              type="number"
              min="1"
              step="1"
              required
              value={amount}
              onInput={(e) => setAmount(e.currentTarget.value)}
            />
          </label>
          <button type="submit" disabled={act.busy}>
            Buy
          </button>
        </form>
        <form class="panel" onSubmit={setLimit} aria-label="Low-balance threshold">
          <label>
            Low-balance threshold (minor units; empty clears it)
            <input
              type="number"
              min="0"
              step="1"
              value={threshold}
              onInput={(e) => setThreshold(e.currentTarget.value)}
            />
          </label>
          <button type="submit" disabled={act.busy}>
            Set threshold
          </button>
        </form>
      </div>
      <Busy when={act.busy} />
      <ErrorNotice error={act.error} />
      {c ? (
        <div class="table-wrap">
          <table>
            <caption>Ledger (latest 20)</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Kind</th>
                <th scope="col">Amount</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {c.ledger.map((l, i) => (
                <tr key={i}>
                  <td>{new Date(l.createdAt).toLocaleString()}</td>
                  <td>{l.kind}</td>
                  <td>{money(l.amount, c.currency)}</td>
                  <td>{l.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
