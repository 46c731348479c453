export { ErrorCatalog, A2A_REASONS, type ErrorCode } from './catalog.js';
export * from './hub-error.js';
export {
  toWire,
  fromWire,
  isErrorCode,
  ERROR_CODE_HEADER,
  ERROR_MESSAGE_HEADER,
  type WireError,
} from './wire.js';
export { restError, toRestError, type RestErrorBody } from './rest.js';
