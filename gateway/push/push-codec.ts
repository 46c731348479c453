// Push notification config params and results in each dialect (decisions.md §1): A2A v1.0's flat
// TaskPushNotificationConfig {taskId, id, url, token, authentication{scheme, credentials}}, v0.3's
// {taskId, pushNotificationConfig{id, url, token, authentication{schemes[], credentials}}} (the
// hub dialect answers in v0.3's shapes). Input is tolerant: either shape is read anywhere.
import { InvalidParamsError } from '../../runtime/errors/index.js';
import type { Dialect } from '../../runtime/protocol/index.js';
import type { PushConfigRecord } from '../../infra/db/index.js';

/** A config as a caller asked for it, validated. */
export interface PushConfigInput {
  readonly taskId: string;
  readonly id?: string;
  readonly url: string;
  readonly token?: string;
  readonly authentication?: { readonly scheme: string; readonly credentials?: string };
}

/** Which config of which task (Get, Delete; List has no id). */
export interface PushConfigRef {
  readonly taskId: string;
  readonly id?: string;
}

const MAX_URL = 2048;
const MAX_TOKEN = 1024;
const MAX_CREDENTIALS = 4096;
const MAX_ID = 128;
/** Printable ASCII without spaces: ids go into headers (X-Hub-Delivery). */
const ID_PATTERN = /^[\x21-\x7e]+$/;
/** An RFC 9110 token: the Authorization scheme is sent as is. */
const SCHEME_PATTERN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;

type Obj = Record<string, unknown>;

function obj(v: unknown, field: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new InvalidParamsError(field, 'must be an object');
  }
  return v as Obj;
}

function str(v: unknown, field: string, max: number): string {
  if (typeof v !== 'string' || v === '') throw new InvalidParamsError(field, 'must be a string');
  if (v.length > max) throw new InvalidParamsError(field, `must be at most ${max} characters`);
  return v;
}

function optStr(v: unknown, field: string, max: number): string | undefined {
  // Protobuf JSON sends unset strings as "": the same as absent.
  return v === undefined || v === null || v === '' ? undefined : str(v, field, max);
}

function readId(v: unknown, field: string): string | undefined {
  const id = optStr(v, field, MAX_ID);
  if (id !== undefined && !ID_PATTERN.test(id)) {
    throw new InvalidParamsError(field, 'must be printable ASCII without spaces');
  }
  return id;
}

function readUrl(v: unknown, field: string): string {
  const raw = str(v, field, MAX_URL);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidParamsError(field, 'must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidParamsError(field, 'must be an absolute http or https URL');
  }
  if (url.username !== '' || url.password !== '') {
    throw new InvalidParamsError(field, 'must not carry credentials (use authentication)');
  }
  return raw;
}

function readAuth(v: unknown, field: string): PushConfigInput['authentication'] {
  if (v === undefined || v === null) return undefined;
  const a = obj(v, field);
  // v1.0: scheme; v0.3: schemes (the first one is the one used).
  let scheme: unknown = a.scheme;
  if (scheme === undefined && Array.isArray(a.schemes)) scheme = a.schemes[0];
  if (scheme === undefined || scheme === '') return undefined;
  if (typeof scheme !== 'string' || !SCHEME_PATTERN.test(scheme)) {
    throw new InvalidParamsError(`${field}.scheme`, 'must be an HTTP authentication scheme');
  }
  const credentials = optStr(a.credentials, `${field}.credentials`, MAX_CREDENTIALS);
  if (credentials !== undefined && /[\r\n]/.test(credentials)) {
    throw new InvalidParamsError(`${field}.credentials`, 'must be one line');
  }
  return { scheme, ...(credentials !== undefined ? { credentials } : {}) };
}

/**
 * The config body (url, token, authentication, id) at `field`, for a task given elsewhere: the
 * SendMessage configuration's pushNotificationConfig / taskPushNotificationConfig.
 */
export function readPushConfigBody(v: unknown, field: string, taskId: string): PushConfigInput {
  const c = obj(v, field === '' ? 'params' : field);
  // Flat params (v1.0) name their fields bare.
  const at = (name: string) => (field === '' ? name : `${field}.${name}`);
  const token = optStr(c.token, at('token'), MAX_TOKEN);
  if (token !== undefined && /[\r\n]/.test(token)) {
    throw new InvalidParamsError(at('token'), 'must be one line');
  }
  const id = readId(c.id, at('id'));
  const authentication = readAuth(c.authentication, at('authentication'));
  return {
    taskId,
    url: readUrl(c.url, at('url')),
    ...(id !== undefined ? { id } : {}),
    ...(token !== undefined ? { token } : {}),
    ...(authentication !== undefined ? { authentication } : {}),
  };
}

/** Create (v1.0 flat) or tasks/pushNotificationConfig/set (v0.3 nested) params. */
export function readCreateParams(params: unknown): PushConfigInput {
  const p = obj(params, 'params');
  const taskId = str(p.taskId, 'taskId', MAX_ID);
  if (p.pushNotificationConfig !== undefined) {
    return readPushConfigBody(p.pushNotificationConfig, 'pushNotificationConfig', taskId);
  }
  // An earlier v1.0 draft: {taskId, configId, config}.
  if (p.config !== undefined) {
    const body = readPushConfigBody(p.config, 'config', taskId);
    const id = readId(p.configId, 'configId');
    return id !== undefined ? { ...body, id } : body;
  }
  return readPushConfigBody(p, '', taskId);
}

/**
 * Get/Delete/List params: v1.0 {taskId, id}, v0.3 {id: <task id>, pushNotificationConfigId}. The
 * two use `id` for different things, so the presence of `taskId` decides which one it is.
 */
export function readRefParams(params: unknown): PushConfigRef {
  const p = obj(params, 'params');
  if (p.taskId !== undefined) {
    const id = readId(p.id, 'id');
    return { taskId: str(p.taskId, 'taskId', MAX_ID), ...(id !== undefined ? { id } : {}) };
  }
  const id = readId(p.pushNotificationConfigId, 'pushNotificationConfigId');
  return { taskId: str(p.id, 'id', MAX_ID), ...(id !== undefined ? { id } : {}) };
}

/** The SendMessage configuration's push config, if any (v0.3 and v1.0 names). */
export function sendPushConfig(params: unknown): { field: string; value: unknown } | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const c = (params as Obj).configuration;
  if (typeof c !== 'object' || c === null) return undefined;
  const config = c as Obj;
  for (const name of ['taskPushNotificationConfig', 'pushNotificationConfig']) {
    const value = config[name];
    if (value !== undefined && value !== null) return { field: `configuration.${name}`, value };
  }
  return undefined;
}

/** One config in the dialect's shape. */
export function encodePushConfig(c: PushConfigRecord, dialect: Dialect): unknown {
  if (dialect === 'v1') {
    return {
      taskId: c.taskId,
      id: c.id,
      url: c.url,
      ...(c.token !== null ? { token: c.token } : {}),
      ...(c.authScheme !== null
        ? {
            authentication: {
              scheme: c.authScheme,
              ...(c.authCredentials !== null ? { credentials: c.authCredentials } : {}),
            },
          }
        : {}),
    };
  }
  return {
    taskId: c.taskId,
    pushNotificationConfig: {
      id: c.id,
      url: c.url,
      ...(c.token !== null ? { token: c.token } : {}),
      ...(c.authScheme !== null
        ? {
            authentication: {
              schemes: [c.authScheme],
              ...(c.authCredentials !== null ? { credentials: c.authCredentials } : {}),
            },
          }
        : {}),
    },
  };
}

/** A list: v1.0 {configs, nextPageToken}; v0.3 and the hub dialect a bare array. */
export function encodePushConfigList(list: readonly PushConfigRecord[], dialect: Dialect): unknown {
  const configs = list.map((c) => encodePushConfig(c, dialect));
  return dialect === 'v1' ? { configs, nextPageToken: '' } : configs;
}
