// Every official agent this build runs: a static import map (no scanning the file system).
import concierge from './concierge/index.js';
import companies from './companies/index.js';
import congressTrades from './congress-trades/index.js';
import crm from './crm/index.js';
import echo from './echo/index.js';
import epa from './epa/index.js';
import fda from './fda/index.js';
import insiderTrades from './insider-trades/index.js';
import kanban from './kanban/index.js';
import lobbying from './lobbying/index.js';
import memory from './memory/index.js';
import news from './news/index.js';
import patents from './patents/index.js';
import pixel from './pixel/index.js';
import postie from './postie/index.js';
import research from './research/index.js';
import researchGrants from './research-grants/index.js';
import reddit from './reddit/index.js';
import rfpHunter from './rfp-hunter/index.js';
import search from './search/index.js';
import secFilings from './sec-filings/index.js';
import trade from './trade/index.js';
import trials from './trials/index.js';
import usaspending from './usaspending/index.js';
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
  trials,
  fda,
  epa,
  patents,
  secFilings,
  insiderTrades,
  companies,
  research,
  lobbying,
  researchGrants,
  congressTrades,
  news,
  reddit,
  trade,
  usaspending,
  rfpHunter,
];
