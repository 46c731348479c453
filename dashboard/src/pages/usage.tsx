// Usage and messages: GET /api/usage and /api/messages/stats/summary over a chosen range, as
// charts and the same numbers in tables; top agents and the success rate.
import { useState } from 'preact/hooks';
import { get } from '../api';
import { BarChart } from '../parts/bar-chart';
import { Busy, ErrorNotice } from '../parts/notice';
import { useLoad } from '../parts/use-load';

interface UsageDay {
  date: string;
  messages_sent: number;
  messages_received: number;
  bytes_transferred: number;
}
interface Stats {
  summary: { total: number; sent: number; received: number; delivered: number; failed: number };
  daily: Array<{ date: string; sent: number; received: number; delivered: number; failed: number }>;
  topAgents: Array<{ agentId: string; name: string; messages: number }>;
}

export function UsagePage() {
  const [days, setDays] = useState(7);
  const data = useLoad(
    () =>
      Promise.all([
        get<{ usage: UsageDay[] }>(`/api/usage?days=${days}`),
        get<Stats>(`/api/messages/stats/summary?days=${days}`),
      ]),
    [days]
  );
  const [usage, stats] = data.data ?? [];
  const s = stats?.summary;
  const ended = s ? s.delivered + s.failed : 0;
  const rate = s && ended > 0 ? `${((100 * s.delivered) / ended).toFixed(1)}%` : '–';
  return (
    <section aria-labelledby="usage-h">
      <h1 id="usage-h">Usage and messages</h1>
      <label class="inline">
        Range{' '}
        <select value={String(days)} onChange={(e) => setDays(Number(e.currentTarget.value))}>
          <option value="1">today</option>
          <option value="7">7 days</option>
          <option value="30">30 days</option>
          <option value="90">90 days</option>
          <option value="366">366 days</option>
        </select>
      </label>
      <ErrorNotice error={data.error} />
      <Busy when={data.loading} label="Loading statistics…" />
      {s ? (
        <dl class="cards">
          <div>
            <dt>Messages</dt>
            <dd>{s.total}</dd>
          </div>
          <div>
            <dt>Sent</dt>
            <dd>{s.sent}</dd>
          </div>
          <div>
            <dt>Received</dt>
            <dd>{s.received}</dd>
          </div>
          <div>
            <dt>Delivered</dt>
            <dd>{s.delivered}</dd>
          </div>
          <div>
            <dt>Failed</dt>
            <dd>{s.failed}</dd>
          </div>
          <div>
            <dt>Success rate</dt>
            <dd data-testid="success-rate">{rate}</dd>
          </div>
        </dl>
      ) : null}
      {usage ? (
        <BarChart
          title="Messages per day"
          labels={usage.usage.map((u) => u.date)}
          series={[
            { name: 'sent', className: 's1', values: usage.usage.map((u) => u.messages_sent) },
            {
              name: 'received',
              className: 's2',
              values: usage.usage.map((u) => u.messages_received),
            },
          ]}
        />
      ) : null}
      {stats ? (
        <BarChart
          title="Outcomes per day"
          labels={stats.daily.map((d) => d.date)}
          series={[
            { name: 'delivered', className: 's3', values: stats.daily.map((d) => d.delivered) },
            { name: 'failed', className: 's4', values: stats.daily.map((d) => d.failed) },
          ]}
        />
      ) : null}
      {stats ? (
        <div class="table-wrap">
          <table>
            <caption>Top agents</caption>
            <thead>
              <tr>
                <th scope="col">Agent</th>
                <th scope="col">Messages</th>
              </tr>
            </thead>
            <tbody>
              {stats.topAgents.length === 0 ? (
                <tr>
                  <td colSpan={2}>No messages in this range.</td>
                </tr>
              ) : null}
              {stats.topAgents.map((a) => (
                <tr key={a.agentId}>
                  <th scope="row">
                    {a.name} <span class="sub mono">{a.agentId}</span>
                  </th>
                  <td>{a.messages}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {usage ? (
        <div class="table-wrap">
          <table>
            <caption>Per day</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Sent</th>
                <th scope="col">Received</th>
                <th scope="col">Bytes</th>
              </tr>
            </thead>
            <tbody>
              {usage.usage.map((u) => (
                <tr key={u.date}>
                  <th scope="row">{u.date}</th>
                  <td>{u.messages_sent}</td>
                  <td>{u.messages_received}</td>
                  <td>{u.bytes_transferred}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
