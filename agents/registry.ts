// Every official agent this build runs: a static import map (no scanning the file system).
import echo from './echo/index.js';
import type { OfficialAgent } from './kit/index.js';

export const officialAgents: readonly OfficialAgent[] = [echo];
