// Both method-name families normalize to the A2A v1.0 names (decisions.md §1).
import { describe, expect, it } from 'vitest';
import { isHubOnlyMethod, isStreamingMethod, normalizeMethod, RpcMethod } from './methods.js';

describe('normalizeMethod', () => {
  it.each([
    ['SendMessage', 'SendMessage'],
    ['message/send', 'SendMessage'],
    ['SendStreamingMessage', 'SendStreamingMessage'],
    ['message/stream', 'SendStreamingMessage'],
    ['GetTask', 'GetTask'],
    ['tasks/get', 'GetTask'],
    ['CancelTask', 'CancelTask'],
    ['tasks/cancel', 'CancelTask'],
    ['ListTasks', 'ListTasks'],
    ['tasks/list', 'ListTasks'],
    ['SubscribeToTask', 'SubscribeToTask'],
    ['tasks/resubscribe', 'SubscribeToTask'],
    ['tasks/pushNotificationConfig/set', 'CreateTaskPushNotificationConfig'],
    ['tasks/pushNotificationConfig/get', 'GetTaskPushNotificationConfig'],
    ['tasks/pushNotificationConfig/list', 'ListTaskPushNotificationConfigs'],
    ['tasks/pushNotificationConfig/delete', 'DeleteTaskPushNotificationConfig'],
    ['CreateTaskPushNotificationConfig', 'CreateTaskPushNotificationConfig'],
    ['DeleteTaskPushNotificationConfig', 'DeleteTaskPushNotificationConfig'],
    ['GetExtendedAgentCard', 'GetExtendedAgentCard'],
    ['agent/getAuthenticatedExtendedCard', 'GetExtendedAgentCard'],
    ['task/respond', 'task/respond'],
  ])('%s → %s', (name, canonical) => {
    expect(normalizeMethod(name)).toBe(canonical);
  });

  it.each(['tasks/send', 'sendmessage', 'toString', '__proto__', 'constructor', ''])(
    'does not know %j',
    (name) => {
      expect(normalizeMethod(name)).toBeUndefined();
    }
  );

  it('marks task/respond hub-only and the two stream methods streaming', () => {
    expect(isHubOnlyMethod(RpcMethod.TaskRespond)).toBe(true);
    expect(isHubOnlyMethod(RpcMethod.SendMessage)).toBe(false);
    expect(isStreamingMethod(RpcMethod.SendStreamingMessage)).toBe(true);
    expect(isStreamingMethod(RpcMethod.SubscribeToTask)).toBe(true);
    expect(isStreamingMethod(RpcMethod.GetTask)).toBe(false);
  });
});
