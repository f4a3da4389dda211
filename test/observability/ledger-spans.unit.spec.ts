import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { LEDGER_SPANS, withLedgerSpan, withLedgerSpanSync } from '../../src/observability/index.js';

const exporter = new InMemorySpanExporter();

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
});

afterAll(() => {
  trace.disable();
  context.disable();
});

beforeEach(() => exporter.reset());

describe('ledger spans', () => {
  it('nest command → decide → append with the command attributes', async () => {
    const answer = await withLedgerSpan(
      LEDGER_SPANS.command,
      { command: 'claim', tenant: 'acme', action: 'invoice.create' },
      async (cmd) => {
        const decision = withLedgerSpanSync(LEDGER_SPANS.decide, { operationId: 'op-1' }, () => 'acquired');
        await withLedgerSpan(
          LEDGER_SPANS.append,
          { operationId: 'op-1', expectedRevision: 3n, eventCount: 1 },
          async () => undefined,
        );
        cmd.set({ operationId: 'op-1', outcome: decision, wrongExpectedVersionRetries: 1 });
        return decision;
      },
    );
    expect(answer).toBe('acquired');
    const spans = Object.fromEntries(exporter.getFinishedSpans().map((s) => [s.name, s]));
    const command = spans['ledger.command']!;
    expect(spans['ledger.decide']!.parentSpanContext?.spanId).toBe(command.spanContext().spanId);
    expect(spans['ledger.append']!.parentSpanContext?.spanId).toBe(command.spanContext().spanId);
    expect(command.attributes).toEqual({
      'ledger.command': 'claim',
      'ledger.tenant': 'acme',
      'ledger.action': 'invoice.create',
      'ledger.operation_id': 'op-1',
      'ledger.outcome': 'acquired',
      'ledger.wrong_expected_version_retries': 1,
    });
    expect(spans['ledger.append']!.attributes['ledger.expected_revision']).toBe(3);
  });

  it('records a thrown error on the span and rethrows it unchanged', async () => {
    const error = new Error('WrongExpectedVersion');
    await expect(withLedgerSpan(LEDGER_SPANS.append, {}, () => Promise.reject(error))).rejects.toBe(error);
    const [span] = exporter.getFinishedSpans();
    expect(span!.status.code).toBe(2); // ERROR
    expect(span!.events.map((e) => e.name)).toEqual(['exception']);
  });
});
