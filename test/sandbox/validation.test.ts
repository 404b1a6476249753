import { describe, expect, it } from 'vitest';
import { get, notFoundBody, swapsPath, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

function validation(instance: string, errors: Record<string, string[]>) {
  return {
    type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
    title: 'One or more validation errors occurred.',
    status: 400,
    detail: null,
    instance,
    errors,
    errorCode: 'ValidationFailed',
  };
}

const SWAPS = '/v1/external/swaps';

async function errorsOf(path: string): Promise<unknown> {
  const res = await get(sandbox(), path);
  expect(res.status).toBe(400);
  expect(res.json).toMatchObject({ type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1', status: 400, errorCode: 'ValidationFailed', detail: null });
  return (res.json as { errors: unknown }).errors;
}

describe('sandbox validation of the swaps window', () => {
  it('requires From and To', async () => {
    const res = await get(sandbox(), SWAPS);
    expect(res.status).toBe(400);
    expect(res.json).toStrictEqual(validation(SWAPS, { From: ['The From field is required.'], To: ['The To field is required.'] }));
    expect(await errorsOf(`${SWAPS}?From=2026-11-01T00:00:00Z`)).toStrictEqual({ To: ['The To field is required.'] });
    expect(await errorsOf(`${SWAPS}?To=2026-11-01T00:00:00Z&From=`)).toStrictEqual({ From: ['The From field is required.'] });
  });

  it('rejects unparsable date-times per field', async () => {
    expect(await errorsOf(`${SWAPS}?From=yesterday&To=2026-11-01T00:00:00Z`)).toStrictEqual({
      From: ["The value 'yesterday' is not valid for From."],
    });
    expect(await errorsOf(`${SWAPS}?From=2026-11-01T00:00:00Z&To=2026-13-01T00:00:00Z`)).toStrictEqual({
      To: ["The value '2026-13-01T00:00:00Z' is not valid for To."],
    });
    expect(await errorsOf(`${SWAPS}?From=2026-02-30T00:00:00&To=2026-02-30T00:10:00`)).toHaveProperty('From');
  });

  it('accepts ISO 8601 with or without zone, fractions and offsets', async () => {
    for (const [from, to] of [
      ['2026-11-01T00:00:00Z', '2026-11-01T00:10:00Z'],
      ['2026-11-01T00:00:00', '2026-11-01T00:10:00.5'],
      ['2026-11-01T00:00:00.123456Z', '2026-11-01T00:10:00.1234567Z'],
      ['2026-11-01T01:00:00+01:00', '2026-11-01T00:10:00Z'],
      ['2026-11-01', '2026-11-01T00:30:00'],
    ] as const) {
      expect((await get(sandbox(), swapsPath(from, to))).status, `${from} ${to}`).toBe(200);
    }
  });

  it('rejects To before From', async () => {
    expect(await errorsOf(swapsPath('2026-11-01T00:10:00Z', '2026-11-01T00:09:59.999Z'))).toStrictEqual({
      To: ['To must be later than or equal to From.'],
    });
    expect((await get(sandbox(), swapsPath('2026-11-01T00:10:00Z', '2026-11-01T00:10:00Z'))).status).toBe(200);
  });

  it('allows exactly 30 minutes and rejects 30 minutes and 1 second', async () => {
    expect((await get(sandbox(), swapsPath('2026-11-01T00:00:00Z', '2026-11-01T00:30:00Z'))).status).toBe(200);
    expect(await errorsOf(swapsPath('2026-11-01T00:00:00Z', '2026-11-01T00:30:01Z'))).toStrictEqual({
      To: ['The span between From and To must not exceed 30 minutes.'],
    });
    expect((await get(sandbox(), swapsPath('2026-11-01T00:00:00Z', '2026-11-01T00:30:00.001Z'))).status).toBe(400);
    // Zones are honoured: 01:30+01:00 is 00:30Z.
    expect((await get(sandbox(), swapsPath('2026-11-01T00:00:00Z', '2026-11-01T01:30:00+01:00'))).status).toBe(200);
  });

  it('binds Filter case-insensitively and rejects other values', async () => {
    for (const filter of ['Withdrawn', 'deposited', 'COMPLETED', 'uPdAtEd']) {
      expect((await get(sandbox(), swapsPath('2026-11-01T00:00:00Z', '2026-11-01T00:05:00Z', filter))).status).toBe(200);
    }
    for (const filter of ['Detected', '1', '']) {
      const errors = await errorsOf(swapsPath('2026-11-01T00:00:00Z', '2026-11-01T00:05:00Z', filter));
      expect(Object.keys(errors as object)).toEqual(['Filter']);
    }
  });

  it('binds query parameter names case-insensitively', async () => {
    const canonical = await get(sandbox(), `${SWAPS}?From=2026-11-01T00:00:00Z&To=2026-11-01T00:05:00Z&Filter=Completed`);
    for (const query of [
      'from=2026-11-01T00:00:00Z&to=2026-11-01T00:05:00Z&filter=Completed',
      'FROM=2026-11-01T00:00:00Z&TO=2026-11-01T00:05:00Z&FILTER=completed',
      'fRoM=2026-11-01T00%3A00%3A00Z&To=2026-11-01T00%3A05%3A00Z&fIlTeR=Completed',
    ]) {
      const res = await get(sandbox(), `${SWAPS}?${query}`);
      expect(res.status).toBe(200);
      expect(res.text).toBe(canonical.text);
    }
    expect(JSON.parse(canonical.text).length).toBeGreaterThan(0);
  });

  it('reports several errors at once', async () => {
    const errors = await errorsOf(`${SWAPS}?From=x&Filter=nope`);
    expect(errors).toStrictEqual({
      From: ["The value 'x' is not valid for From."],
      To: ['The To field is required.'],
      Filter: ["The value 'nope' is not valid for Filter."],
    });
  });
});

describe('sandbox validation of tokens and bridges', () => {
  const TOKENS = '/v1/external/chains/ethereum/tokens';

  it.each([
    ['Take=abc', { Take: ["The value 'abc' is not valid for Take."] }],
    ['Take=1.5', { Take: ["The value '1.5' is not valid for Take."] }],
    ['Take=-1', { Take: ['The field Take must be between 0 and 1000.'] }],
    ['Take=1001', { Take: ['The field Take must be between 0 and 1000.'] }],
    ['Offset=x', { Offset: ["The value 'x' is not valid for Offset."] }],
    ['Offset=-5', { Offset: ['The field Offset must be between 0 and 100000.'] }],
    ['Offset=100001', { Offset: ['The field Offset must be between 0 and 100000.'] }],
    ['take=5000&offset=999999', { Take: ['The field Take must be between 0 and 1000.'], Offset: ['The field Offset must be between 0 and 100000.'] }],
  ])('rejects %s', async (query, errors) => {
    const res = await get(sandbox(), `${TOKENS}?${query}`);
    expect(res.status).toBe(400);
    expect(res.json).toStrictEqual(validation(TOKENS, errors));
  });

  it('accepts the bounds', async () => {
    for (const query of ['Take=0', 'Take=1000', 'Offset=0', 'Offset=100000', 'TAKE=10&OFFSET=20']) {
      expect((await get(sandbox(), `${TOKENS}?${query}`)).status, query).toBe(200);
    }
  });

  it('validates before answering 404 for an unknown chain', async () => {
    expect((await get(sandbox(), '/v1/external/chains/nope/tokens?Take=-1')).status).toBe(400);
  });

  it('rejects a non-boolean includeDelisted', async () => {
    const res = await get(sandbox(), '/v1/external/bridges?includeDelisted=yes');
    expect(res.status).toBe(400);
    expect(res.json).toStrictEqual(validation('/v1/external/bridges', { includeDelisted: ["The value 'yes' is not valid for includeDelisted."] }));
    expect((await get(sandbox(), '/v1/external/bridges?INCLUDEDELISTED=True')).status).toBe(200);
  });
});

describe('sandbox routing and media types', () => {
  it('answers 404 ProblemDetails for an unknown path', async () => {
    const res = await get(sandbox(), '/v1/external/nothing');
    expect(res.status).toBe(404);
    expect(res.json).toStrictEqual(notFoundBody('/v1/external/nothing'));
  });

  it('answers 405 to anything but GET', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await get(sandbox(), '/v1/external/chains', { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
    }
  });

  it('matches routes case-insensitively, with a trailing slash', async () => {
    expect((await get(sandbox(), '/V1/External/Chains/')).status).toBe(200);
  });

  it('sends JSON with Content-Length by default and honours text/plain and text/json', async () => {
    const res = await get(sandbox(), '/v1/external/chains');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(res.text));
    const plain = await get(sandbox(), '/v1/external/chains', { accept: 'text/plain' });
    expect(plain.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(plain.text).toBe(res.text);
    const textJson = await get(sandbox(), '/v1/external/chains', { accept: 'application/json;q=0.5, text/json' });
    expect(textJson.headers.get('content-type')).toBe('text/json; charset=utf-8');
    const problem = await get(sandbox(), '/v1/external/swaps', { accept: 'text/plain' });
    expect(problem.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });
});
