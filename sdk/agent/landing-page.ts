// The small HTML page an HTTP agent serves at GET / (interface-spec "Endpoints an HTTP (webhook)
// agent exposes"): the card's name, description and skills, for a person who opens the URL.
import type { AgentCard } from '../protocol.js';

export function agentLandingPage(card: AgentCard): string {
  const skills = card.skills
    .map((s) => `<li><strong>${esc(s.name)}</strong>: ${esc(s.description)}</li>`)
    .join('\n      ');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>${esc(card.name)}</title>
  </head>
  <body>
    <h1>${esc(card.name)}</h1>
    <p>${esc(card.description)}</p>
    <h2>Skills</h2>
    <ul>
      ${skills || '<li>none listed</li>'}
    </ul>
    <p>An A2A agent: its card is at <a href="/.well-known/agent.json">/.well-known/agent.json</a>;
    messages go to <code>POST /a2a</code> as JSON-RPC <code>SendMessage</code>.</p>
  </body>
</html>
`;
}

function esc(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c
  );
}
