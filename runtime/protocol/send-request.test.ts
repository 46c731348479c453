// SendMessage resolution: ids from the message or configuration, and who waits by default.
import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../errors/index.js';
import { decodeSendMessage } from './send-request.js';

const message = { role: 'user', parts: [{ kind: 'text', text: 'hi' }], messageId: 'm1' };

describe('decodeSendMessage', () => {
  it('takes contextId and taskId from the message or from configuration', () => {
    const a = decodeSendMessage({ message: { ...message, contextId: 'c1' } }, 'hub');
    expect(a).toMatchObject({ contextId: 'c1', message: { contextId: 'c1' } });
    const b = decodeSendMessage(
      { message, configuration: { contextId: 'c2', taskId: 't2' } },
      'hub'
    );
    expect(b).toMatchObject({
      contextId: 'c2',
      taskId: 't2',
      message: { contextId: 'c2', taskId: 't2' },
    });
  });

  it('refuses a contextId that differs between message and configuration', () => {
    const call = () =>
      decodeSendMessage(
        { message: { ...message, contextId: 'c1' }, configuration: { contextId: 'c2' } },
        'hub'
      );
    expect(call).toThrow(InvalidParamsError);
    expect(call).toThrow('configuration.contextId');
  });

  it('answers at once by default on the hub dialect, waits by default in A2A v1.0 and v0.3', () => {
    expect(decodeSendMessage({ message }, 'hub').blocking).toBe(false);
    expect(decodeSendMessage({ message }, 'v1').blocking).toBe(true);
    expect(decodeSendMessage({ message }, 'v0.3').blocking).toBe(true);
    expect(decodeSendMessage({ message, configuration: { blocking: true } }, 'hub').blocking).toBe(
      true
    );
    expect(
      decodeSendMessage({ message, configuration: { blocking: false } }, 'v0.3').blocking
    ).toBe(false);
    const v1 = (returnImmediately: boolean) =>
      decodeSendMessage({ message, configuration: { returnImmediately } }, 'v1').blocking;
    expect(v1(true)).toBe(false);
    expect(v1(false)).toBe(true);
  });

  it('carries agentId, historyLength, output modes, x-ttl and metadata', () => {
    const r = decodeSendMessage(
      {
        message,
        configuration: {
          agentId: 'echo',
          historyLength: 3,
          acceptedOutputModes: ['text/*'],
          'x-ttl': 0,
        },
        metadata: { trace: 'x' },
      },
      'hub'
    );
    expect(r).toEqual({
      message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }], messageId: 'm1' },
      agentId: 'echo',
      historyLength: 3,
      acceptedOutputModes: ['text/*'],
      blocking: false,
      ttlSeconds: 0,
      metadata: { trace: 'x' },
    });
  });
});
