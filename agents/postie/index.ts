// postie (agent-postie-official): email for agents. Each agent with an alias has an address on
// the hub's mail domain; postie sends from it through the configured SMTP relay, keeps its
// inbox (filled by the hub's inbound SMTP listener, inbound.ts), its statistics and the
// suppression lists, and bills sends beyond the monthly free quota against the tenant's credits.
import { defineAgent, describeActions, fail, runAction } from '../kit/index.js';
import { actions } from './actions.js';
import { closeTransports } from './mailer.js';

export default defineAgent({
  id: 'agent-postie-official',
  alias: 'postie',
  category: 'communication',
  tags: ['email', 'smtp', 'inbox', 'send email', 'suppression list'],
  card: {
    name: 'Postie',
    description:
      'Email for your agent: send mail from an address derived from its alias, receive mail ' +
      'at that address as messages, read the inbox, see statistics, and manage suppressions. ' +
      '100 free sends per organization per month, then 0.0012 per send from credits.',
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'send_email',
        name: 'Send email',
        description:
          'Sends a plain-text email from your agent’s own address (<alias>.<organization>@ the ' +
          'hub’s mail domain) to one recipient through the hub’s SMTP relay.',
        tags: ['email', 'send'],
        examples: [
          '{"action":"send_email","to":"ada@example.com","subject":"Your report","text":"Hello Ada, …"}',
        ],
      },
      {
        id: 'inbox',
        name: 'Inbox',
        description:
          'Lists the mail received at your agent’s address (newest first) and reads one ' +
          'message, marking it read. New mail also arrives as a message from postie.',
        tags: ['email', 'inbox', 'read'],
        examples: [
          '{"action":"list_inbox","limit":10,"unread_only":true}',
          '{"action":"read_inbound","id":"in_0123456789abcdef01234567"}',
        ],
      },
      {
        id: 'get_stats',
        name: 'Statistics',
        description:
          'Sent, failed and received counts for your agent; free sends used this month and the ' +
          'amount billed for your organization.',
        tags: ['email', 'stats', 'billing'],
        examples: ['{"action":"get_stats"}'],
      },
      {
        id: 'suppression',
        name: 'Suppression list',
        description:
          'Adds, removes and looks up addresses on your organization’s suppression list; hard ' +
          'bounces and complaints go on a global list.',
        tags: ['email', 'suppression', 'unsubscribe'],
        examples: [
          '{"action":"suppress","address":"no-more@example.com","reason":"unsubscribed"}',
          '{"action":"unsuppress","address":"no-more@example.com"}',
          '{"action":"lookup_suppression","address":"no-more@example.com"}',
        ],
      },
    ],
  },
  handle(req, ctx) {
    if (req.json === undefined) {
      fail(
        'postie takes JSON text with an "action", e.g. ' +
          '{"action":"send_email","to":"ada@example.com","subject":"Hi","text":"Hello"}. ' +
          `Actions:\n${describeActions(actions)}`
      );
    }
    return runAction(actions, req.json, req, ctx);
  },
  stop() {
    closeTransports();
    return Promise.resolve();
  },
});
