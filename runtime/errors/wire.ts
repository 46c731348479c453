// Errors crossing the bus: a reply carries Hub-Error-Code/Hub-Error headers; fromWire rebuilds
// the HubError from the catalog (the idea of nats services' Nats-Service-Error-Code).
import { ErrorCatalog, type ErrorCode } from './catalog.js';
import { HubError } from './hub-error.js';

export const ERROR_CODE_HEADER = 'Hub-Error-Code';
export const ERROR_MESSAGE_HEADER = 'Hub-Error';

export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ErrorCatalog, code);
}

export interface WireError {
  code: ErrorCode;
  message: string;
  data?: unknown;
}

export function toWire(err: HubError): WireError {
  return err.data === undefined
    ? { code: err.code, message: err.message }
    : { code: err.code, message: err.message, data: err.data };
}

export function fromWire(w: { code: string; message?: string; data?: unknown }): HubError {
  const code = isErrorCode(w.code) ? w.code : 'INTERNAL';
  return new HubError(code, w.message, { data: w.data });
}
