import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../../runtime/errors/index.js';
import type { DuePush } from '../../infra/db/index.js';
import {
  encodePushConfig,
  readCreateParams,
  readPushConfigBody,
  readRefParams,
  sendPushConfig,
} from './push-codec.js';
import { pendingNotifications } from './pusher.js';
import { pushRetryAt, PUSH_MAX_ATTEMPTS } from './push-schedule.js';

const field = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof InvalidParamsError ? (err.data as { field?: string }).field : 'other';
  }
  return 'none';
};

describe('push config params', () => {
  it('reads the v1.0 flat shape and the v0.3 nested one alike', () => {
    const v1 = readCreateParams({
      taskId: 't1',
      id: 'c1',
      url: 'https://r.example/p',
      token: 'tok',
      authentication: { scheme: 'Bearer', credentials: 'x' },
    });
    const v03 = readCreateParams({
      taskId: 't1',
      pushNotificationConfig: {
        id: 'c1',
        url: 'https://r.example/p',
        token: 'tok',
        authentication: { schemes: ['Bearer'], credentials: 'x' },
      },
    });
    expect(v1).toEqual(v03);
    expect(v1.authentication).toEqual({ scheme: 'Bearer', credentials: 'x' });
  });

  it('treats protobuf empty strings as absent', () => {
    expect(readCreateParams({ taskId: 't', id: '', url: 'http://r/', token: '' })).toEqual({
      taskId: 't',
      url: 'http://r/',
    });
  });

  it('names the bad field', () => {
    expect(field(() => readCreateParams({ taskId: 't', url: 'ftp://r/' }))).toBe('url');
    expect(field(() => readCreateParams({ url: 'http://r/' }))).toBe('taskId');
    expect(
      field(() => readCreateParams({ taskId: 't', pushNotificationConfig: { url: 'x' } }))
    ).toBe('pushNotificationConfig.url');
    expect(field(() => readCreateParams({ taskId: 't', url: 'http://u:p@r/' }))).toBe('url');
    expect(
      field(() => readPushConfigBody({ url: 'http://r/', token: 'a\nb' }, 'configuration.x', 't'))
    ).toBe('configuration.x.token');
    expect(
      field(() =>
        readCreateParams({ taskId: 't', url: 'http://r/', authentication: { scheme: 'a b' } })
      )
    ).toBe('authentication.scheme');
  });

  it('reads refs in both dialects: taskId decides what `id` means', () => {
    expect(readRefParams({ taskId: 't', id: 'c' })).toEqual({ taskId: 't', id: 'c' });
    expect(readRefParams({ id: 't', pushNotificationConfigId: 'c' })).toEqual({
      taskId: 't',
      id: 'c',
    });
    expect(readRefParams({ id: 't' })).toEqual({ taskId: 't' });
  });

  it('finds the config on SendMessage under either name', () => {
    expect(sendPushConfig({ configuration: { pushNotificationConfig: { url: 'u' } } })?.field).toBe(
      'configuration.pushNotificationConfig'
    );
    expect(
      sendPushConfig({ configuration: { taskPushNotificationConfig: { url: 'u' } } })?.field
    ).toBe('configuration.taskPushNotificationConfig');
    expect(sendPushConfig({ configuration: {} })).toBeUndefined();
  });

  it('encodes per dialect', () => {
    const c = {
      taskId: 't',
      id: 'c',
      ownerAgentId: 'a',
      ownerTenantId: 'ten',
      dialect: 'v1' as const,
      url: 'http://r/',
      token: null,
      authScheme: 'Bearer',
      authCredentials: 'x',
    };
    expect(encodePushConfig(c, 'v1')).toEqual({
      taskId: 't',
      id: 'c',
      url: 'http://r/',
      authentication: { scheme: 'Bearer', credentials: 'x' },
    });
    expect(encodePushConfig(c, 'v0.3')).toEqual({
      taskId: 't',
      pushNotificationConfig: {
        id: 'c',
        url: 'http://r/',
        authentication: { schemes: ['Bearer'], credentials: 'x' },
      },
    });
  });
});

describe('what is left to push', () => {
  const task = {
    id: 't',
    contextId: 'ctx',
    senderId: 's',
    recipientId: 'r',
    senderTenantId: 'ten',
    recipientTenantId: 'ten',
    createdAt: 1,
    status: { state: 'completed' as const, timestamp: 3 },
    messages: [],
    artifacts: [],
    events: [
      { rev: 1, type: 'status' as const, status: { state: 'submitted' as const, timestamp: 1 } },
      { rev: 2, type: 'status' as const, status: { state: 'working' as const, timestamp: 2 } },
      { rev: 3, type: 'status' as const, status: { state: 'completed' as const, timestamp: 3 } },
    ],
    rev: 3,
  };
  const due = (dialect: DuePush['dialect'], deliveredRev: number): DuePush => ({
    taskId: 't',
    id: 'c',
    ownerAgentId: 's',
    ownerTenantId: 'ten',
    dialect,
    url: 'http://r/',
    token: null,
    authScheme: null,
    authCredentials: null,
    deliveredRev,
    attempts: 0,
    task,
  });

  it('gives the events after the delivered rev, in order, one StreamResponse each', () => {
    const left = pendingNotifications(due('v1', 1));
    expect(left.map((n) => n.rev)).toEqual([2, 3]);
    expect(JSON.parse(left[1]!.body)).toMatchObject({
      statusUpdate: { taskId: 't', status: { state: 'TASK_STATE_COMPLETED' } },
    });
    expect(pendingNotifications(due('hub', 3))).toEqual([]);
  });

  it('gives v0.3 the task as it stands', () => {
    const [only, ...rest] = pendingNotifications(due('v0.3', 0));
    expect(rest).toEqual([]);
    expect(only!.rev).toBe(3);
    expect(JSON.parse(only!.body)).toMatchObject({ kind: 'task', id: 't' });
  });
});

describe('push retry schedule', () => {
  it('doubles from 1 s to 5 minutes and gives up after the last attempt', () => {
    expect(pushRetryAt(1, 0)?.getTime()).toBe(1_000);
    expect(pushRetryAt(2, 0)?.getTime()).toBe(2_000);
    expect(pushRetryAt(11, 0)?.getTime()).toBe(300_000);
    expect(pushRetryAt(PUSH_MAX_ATTEMPTS, 0)).toBeNull();
  });
});
