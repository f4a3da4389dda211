import {
  correlationFromHeaders,
  correlationMetadata,
  correlationOf,
  parseTraceparent,
  parseTracestate,
} from '../../src/observability/index.js';

const TP = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('parseTraceparent (W3C Trace Context §3.2)', () => {
  it('reads version, trace id, parent id and flags', () => {
    expect(parseTraceparent(` ${TP} `)).toEqual({
      version: '00',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      parentId: '00f067aa0ba902b7',
      flags: '01',
    });
  });

  it.each([
    ['upper case', TP.toUpperCase()],
    ['version ff', TP.replace(/^00/, 'ff')],
    ['all-zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`],
    ['all-zero parent id', `00-4bf92f3577b34da6a3ce929d0e0e4736-${'0'.repeat(16)}-01`],
    ['extra field on version 00', `${TP}-extra`],
    ['short trace id', '00-4bf92f3577b34da6-00f067aa0ba902b7-01'],
    ['empty', ''],
  ])('rejects %s', (_what, header) => {
    expect(parseTraceparent(header)).toBeNull();
  });

  it('accepts a later version with more fields, ignoring them', () => {
    expect(parseTraceparent(`cc-${TP.slice(3)}-what-ever`)?.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });
});

describe('parseTracestate', () => {
  it('keeps well-formed members and drops blank ones', () => {
    expect(parseTracestate('rojo=00f067aa0ba902b7, ,congo=t61rcWkgMzE')).toBe(
      'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE',
    );
  });

  it('drops a malformed or oversized header', () => {
    expect(parseTracestate('no-equals-sign')).toBeNull();
    expect(parseTracestate(Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(','))).toBeNull();
    expect(parseTracestate(`a=${'v'.repeat(600)}`)).toBeNull();
  });
});

describe('correlationFromHeaders', () => {
  const newId = () => 'generated-id';

  it('takes X-Request-Id first, and keeps the trace context alongside', () => {
    expect(
      correlationFromHeaders({ 'x-request-id': 'job-42', traceparent: TP, tracestate: 'a=b' }, newId),
    ).toEqual({
      correlationId: 'job-42',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      traceparent: TP,
      tracestate: 'a=b',
    });
  });

  it('falls back to the trace id, then to a new id', () => {
    expect(correlationFromHeaders({ traceparent: TP }, newId).correlationId).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
    expect(correlationFromHeaders({}, newId)).toEqual({
      correlationId: 'generated-id',
      traceId: null,
      traceparent: null,
      tracestate: null,
    });
  });

  it('ignores an unsafe X-Request-Id and tracestate without a valid traceparent', () => {
    const c = correlationFromHeaders(
      { 'x-request-id': 'bad id\n', tracestate: 'a=b', traceparent: 'junk' },
      newId,
    );
    expect(c).toEqual({ correlationId: 'generated-id', traceId: null, traceparent: null, tracestate: null });
    expect(correlationFromHeaders({ 'x-correlation-id': 'corr-1' }, newId).correlationId).toBe('corr-1');
  });

  it('is computed once per request and gives event metadata', () => {
    const req = { headers: { traceparent: TP } };
    expect(correlationOf(req)).toBe(correlationOf(req));
    expect(correlationMetadata(correlationOf(req))).toEqual({
      correlationId: '4bf92f3577b34da6a3ce929d0e0e4736',
      traceparent: TP,
    });
  });
});
