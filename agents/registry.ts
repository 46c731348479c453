// Every official agent this build runs: a static import map (no scanning the file system).
import concierge from './concierge/index.js';
import crm from './crm/index.js';
import echo from './echo/index.js';
import kanban from './kanban/index.js';
import memory from './memory/index.js';
import pixel from './pixel/index.js';
import postie from './postie/index.js';
import search from './search/index.js';
import webfetch from './webfetch/index.js';
import type { OfficialAgent } from './kit/index.js';

export const officialAgents: readonly OfficialAgent[] = [
  echo,
  memory,
  kanban,
  crm,
  concierge,
  postie,
  pixel,
  search,
  webfetch,
];
