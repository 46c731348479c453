// A piscina worker thread: runs one image job at a time, off the event loop that serves the
// gateway. libvips settings are process-wide; each job uses one libvips thread so the pool's
// size (PIXEL_THREADS) is what bounds the CPU image work takes, and nothing is cached between
// requests that never repeat.
import sharp from 'sharp';
import { runImageJob } from './images.js';
import type { ImageJob, ImageOutcome } from './model.js';

sharp.concurrency(1);
sharp.cache(false);

export default function work(job: ImageJob): Promise<ImageOutcome> {
  return runImageJob(job);
}
