import { Agent as UndiciAgent, MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, request } from '../../src/api/undici.js';

let mock: MockAgent | undefined;
afterEach(async () => {
  await mock?.close();
});

describe('the undici parts the HTTP core loads', () => {
  it('Agent is undici’s Agent', async () => {
    expect(Agent).toBe(UndiciAgent);
    const agent = new Agent({ connections: 1 });
    await agent.close();
  });

  it('request sends to the URL’s origin, path and query, over the dispatcher given', async () => {
    mock = new MockAgent();
    mock.disableNetConnect();
    let headers: Record<string, string> = {};
    mock
      .get('https://api.example.test:8443')
      .intercept({ path: '/v1/x?From=a%20b&To=c', method: 'GET' })
      .reply(
        201,
        (options) => {
          headers = options.headers as Record<string, string>;
          return '{"ok":true}';
        },
        { headers: { 'content-type': 'application/json' } },
      );
    const response = await request(new URL('https://api.example.test:8443/v1/x?From=a%20b&To=c#frag'), {
      method: 'GET',
      headers: { accept: 'application/json' },
      dispatcher: mock,
    });
    expect(response.statusCode).toBe(201);
    expect(await response.body.text()).toBe('{"ok":true}');
    expect(headers.accept).toBe('application/json');
  });

  it('a path without a query is sent as it is', async () => {
    mock = new MockAgent();
    mock.disableNetConnect();
    mock.get('https://api.example.test').intercept({ path: '/v1/y', method: 'GET' }).reply(200, 'y');
    const response = await request(new URL('https://api.example.test/v1/y'), { method: 'GET', dispatcher: mock });
    expect(await response.body.text()).toBe('y');
  });
});
