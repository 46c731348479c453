// Access grants (issue 28 item 2): requests to message another tenant's private agent, the
// owner's decisions, auto-approve, and the pair check messaging and agents.available use.
export { accessRoutes, accessRequestView, type AccessRoutesDeps } from './routes.js';
export { accessGranted, grantedAgents } from './grants.js';
