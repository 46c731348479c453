// Placeholder images as SVG text: generated, no input image, so no worker either. Colours arrive
// validated (parse.ts allows only hex, names and rgb()/hsl()), and the label is escaped.
import type { PlaceholderStyle } from './model.js';

export interface PlaceholderJob {
  operation: 'placeholder';
  width: number;
  height: number;
  style: PlaceholderStyle;
  /** Lines, frame, label, gradient start, noise speckles. */
  color: string;
  background: string;
  /** The label of the `dimensions` style; "W×H" when absent. */
  text?: string;
}

export function placeholderSvg(p: PlaceholderJob): string {
  const { width: w, height: h, color, background } = p;
  const stroke = Math.max(1, Math.round(Math.min(w, h) / 60));
  const base = `<rect width="${w}" height="${h}" fill="${background}"/>`;
  let body: string;
  let defs = '';
  switch (p.style) {
    case 'solid':
      body = base;
      break;
    case 'crossed':
      body =
        base +
        `<path d="M0 0L${w} ${h}M${w} 0L0 ${h}" stroke="${color}" stroke-width="${stroke}"/>` +
        frame(w, h, stroke, color);
      break;
    case 'framed':
      body = base + frame(w, h, stroke * 2, color);
      break;
    case 'dimensions': {
      const label = escapeXml(p.text ?? `${w}×${h}`);
      // Roughly fits the label's width (about 0.6 em a character) and the height.
      const chars = Math.max(1, [...(p.text ?? `${w}×${h}`)].length);
      const size = Math.max(6, Math.floor(Math.min(h * 0.4, (w * 0.9) / (chars * 0.6))));
      body =
        base +
        `<text x="50%" y="50%" fill="${color}" font-family="sans-serif" font-size="${size}" ` +
        `text-anchor="middle" dominant-baseline="central">${label}</text>`;
      break;
    }
    case 'gradient':
      defs =
        `<linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
        `<stop offset="0" stop-color="${color}"/><stop offset="1" stop-color="${background}"/>` +
        `</linearGradient>`;
      body = `<rect width="${w}" height="${h}" fill="url(#g)"/>`;
      break;
    case 'noise':
      // Fractal noise turned into an alpha mask over a flood of `color`: speckles on the background.
      defs =
        `<filter id="n" x="0" y="0" width="100%" height="100%">` +
        `<feTurbulence type="fractalNoise" baseFrequency="0.8" numOctaves="3" stitchTiles="stitch" result="t"/>` +
        `<feColorMatrix in="t" type="matrix" values="0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0.6 0.6 0.6 0 -0.5" result="a"/>` +
        `<feFlood flood-color="${color}"/><feComposite in2="a" operator="in"/>` +
        `</filter>`;
      body = base + `<rect width="${w}" height="${h}" filter="url(#n)"/>`;
      break;
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    (defs ? `<defs>${defs}</defs>` : '') +
    body +
    `</svg>`
  );
}

function frame(w: number, h: number, stroke: number, color: string): string {
  const half = stroke / 2;
  return (
    `<rect x="${half}" y="${half}" width="${Math.max(0, w - stroke)}" height="${Math.max(0, h - stroke)}" ` +
    `fill="none" stroke="${color}" stroke-width="${stroke}"/>`
  );
}

function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
