// Replies: the JSON data (status, width, height, format, size, image as a data URI) and the text
// for people, which names what was done and carries the image as a file part beside it.
import { newArtifactId, type Artifact } from '../../runtime/protocol/index.js';
import type { AgentResult } from '../kit/index.js';
import { formatBytes, type ImageDetails } from './model.js';
import type { Job } from './parse.js';

export interface Produced {
  width: number;
  height: number;
  format: string;
  size: number;
  base64: string;
  mimeType: string;
  inputFormat?: string;
}

export interface Described {
  width: number;
  height: number;
  format: string;
  size: number;
  details: ImageDetails;
}

const DONE: Record<Exclude<Job['operation'], 'info'>, string> = {
  resize: 'resized to',
  compress: 'compressed to',
  convert: 'converted to',
  thumbnail: 'thumbnail',
  adjust: 'adjusted,',
  placeholder: 'placeholder',
};

export function imageReply(job: Job, out: Produced, wantsJson: boolean): AgentResult {
  const dataUri = `data:${out.mimeType};base64,${out.base64}`;
  const data = {
    status: 'ok',
    operation: job.operation,
    width: out.width,
    height: out.height,
    format: out.format,
    size: out.size,
    image: dataUri,
  };
  const what =
    job.operation === 'thumbnail'
      ? `thumbnail (${job.size})`
      : DONE[job.operation as keyof typeof DONE];
  const from =
    out.inputFormat && out.inputFormat !== out.format ? ` (from ${out.inputFormat})` : '';
  const text =
    `🖼️ ${what} ${out.width}×${out.height} ${out.format}${from}, ${formatBytes(out.size)}\n` +
    `📎 the image is attached as a file (${out.mimeType}); ask with acceptedOutputModes ` +
    `["application/json"] to get it as a data URI in JSON.`;
  // In JSON the image travels inside `data`; a file part too would carry it twice.
  const artifacts: Artifact[] = wantsJson
    ? []
    : [
        {
          artifactId: newArtifactId(),
          name: `${job.operation}.${out.format === 'jpeg' ? 'jpg' : out.format}`,
          parts: [
            {
              kind: 'file',
              mimeType: out.mimeType,
              name: `${job.operation}.${out.format === 'jpeg' ? 'jpg' : out.format}`,
              data: out.base64,
            },
          ],
        },
      ];
  return { text, data, artifacts };
}

export function infoReply(d: Described): AgentResult {
  const data = {
    status: 'ok',
    operation: 'info',
    width: d.width,
    height: d.height,
    format: d.format,
    size: d.size,
    channels: d.details.channels,
    space: d.details.space,
    has_alpha: d.details.hasAlpha,
    pages: d.details.pages,
    ...(d.details.orientation !== undefined ? { orientation: d.details.orientation } : {}),
    ...(d.details.density !== undefined ? { density: d.details.density } : {}),
  };
  const lines = [
    `🖼️ ${d.format} image, ${d.width}×${d.height}, ${formatBytes(d.size)} (${d.size.toLocaleString('en-US')} bytes)`,
    `• ${d.details.channels} channels, ${d.details.space}${d.details.hasAlpha ? ', with alpha' : ''}`,
  ];
  if (d.details.pages > 1) lines.push(`• ${d.details.pages} pages/frames`);
  if (d.details.orientation !== undefined && d.details.orientation !== 1) {
    lines.push(`• EXIF orientation ${d.details.orientation} (dimensions shown upright)`);
  }
  if (d.details.density !== undefined) lines.push(`• ${d.details.density} DPI`);
  return { text: lines.join('\n'), data };
}
