// The compiled fast path of the ValidationPipe (src/common/compiled-check.ts) must accept exactly
// the bodies class-validator accepts, hand the handler the same fields, and leave every refusal to
// class-validator's path. Differential properties over generated valid and invalid bodies of each
// hot DTO; a deliberately loosened check must be caught by the same properties.
import 'reflect-metadata';
import { plainToInstance, Transform, Type } from 'class-transformer';
import { IsInt, IsString, validateSync, ValidateNested } from 'class-validator';
import fc from 'fast-check';
import {
  CompiledCheck,
  compileBodyCheck,
  compiledCheckOf,
  type BodyCheck,
} from '../../src/common/compiled-check.js';
import { ledgerValidationPipe } from '../../src/common/validation.js';
import { ProblemException } from '../../src/common/problem.exception.js';
import { MAX_LEASE_MS, MAX_REVISION, MIN_LEASE_MS } from '../../src/ledger/index.js';
import { claimRequestOf, ClaimRequestDto } from '../../src/operations/claim/claim-request.dto.js';
import { RenewLeaseRequestDto } from '../../src/operations/policy-commands/policy-command-requests.dto.js';
import { ConfirmRequestDto } from '../../src/operations/worker-steps/confirm-request.dto.js';
import {
  CompleteStepRequestDto,
  StartStepRequestDto,
} from '../../src/operations/worker-steps/step-requests.dto.js';

type Body = Record<string, unknown>;
type Dto = new () => object;

/** class-validator's verdict, as the ValidationPipe reaches it (same options, on a copy). */
function classValidatorAccepts(cls: Dto, body: Body): boolean {
  const dto = plainToInstance(cls, structuredClone(body));
  return (
    validateSync(dto, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true }).length === 0
  );
}

// --- values: near every boundary the hot DTOs draw, and anything else JSON can carry ---

const ints = fc.oneof(
  fc.constantFrom(
    0,
    1,
    -1,
    2,
    MIN_LEASE_MS - 1,
    MIN_LEASE_MS,
    30_000,
    MAX_LEASE_MS,
    MAX_LEASE_MS + 1,
    MAX_REVISION,
    MAX_REVISION + 1,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 1,
    1e300,
    -0,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const strings = fc.oneof(
  fc.constantFrom(
    '',
    'a',
    ' a',
    'a ',
    'acme-gmbh',
    'create-invoice',
    'bad step!',
    'x'.repeat(256),
    'x'.repeat(257),
    'x'.repeat(1024),
    'x'.repeat(1025),
    'ü'.repeat(128),
    'ü'.repeat(129),
    'e\u0301', // not NFC
    '\u00e9',
    'a\u0007b',
    '\u0000',
    '\ufe0f',
    'a\ufe0f',
    '\ud83d\ude00',
    '\ud800',
    '1',
    '30000',
  ),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: ints },
  { weight: 3, arbitrary: strings },
  fc.constantFrom(null, true, false, [], {}, [1], { a: 1 }),
  fc.jsonValue({ maxDepth: 2 }),
);
/** Mostly a value that suits the field, sometimes anything. */
const either = (valid: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 8, arbitrary: valid }, { weight: 1, arbitrary: anyJson });
const validKeyPart = fc.constantFrom(
  'acme-gmbh',
  'shopify',
  'invoice.create',
  'order:812',
  '\u00e9t\u00e9',
  'a',
);
const validToken = fc.integer({ min: 1, max: 1_000_000 });

/**
 * An object of `fields` (the `required` ones mostly present, the others present or not, some
 * null), sometimes with a field no DTO has; as the server sees it: parsed from JSON text.
 */
function bodyOf(fields: Record<string, fc.Arbitrary<unknown>>, required: string[] = []): fc.Arbitrary<Body> {
  const nullable = Object.fromEntries(
    Object.entries(fields).map(([k, a]) => [k, fc.oneof({ weight: 9, arbitrary: a }, fc.constant(null))]),
  );
  return fc
    .tuple(
      fc.oneof(
        { weight: 9, arbitrary: fc.record(nullable, { requiredKeys: required }) },
        { weight: 1, arbitrary: fc.record(nullable, { requiredKeys: [] }) },
      ),
      fc.oneof(
        { weight: 7, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constantFrom('leaseMS', 'extra', 'tenant', 'outputs', 'name') },
      ),
      anyJson,
    )
    .map(([body, extra, value]) => (extra === null ? body : { ...body, [extra]: value }))
    .map((body) => JSON.parse(JSON.stringify(body)) as Body);
}

const key = bodyOf(
  {
    tenant: either(validKeyPart),
    source: either(validKeyPart),
    action: either(validKeyPart),
    subject: either(validKeyPart),
    revision: either(fc.integer({ min: 1, max: MAX_REVISION })),
  },
  ['tenant', 'source', 'action', 'subject'],
);
const claimBody = bodyOf(
  {
    key: fc.oneof({ weight: 4, arbitrary: key }, { weight: 1, arbitrary: anyJson }),
    payload: anyJson,
    leaseMs: either(fc.integer({ min: MIN_LEASE_MS, max: MAX_LEASE_MS })),
    supersedes: either(fc.integer({ min: 1, max: 10 })),
    workerId: either(fc.constantFrom('worker-3', 'w')),
    startStep: either(fc.constantFrom('create-invoice')),
    claimRequestId: either(fc.uuid()),
  },
  ['key'],
);
const startBody = bodyOf({ fencingToken: either(validToken) }, ['fencingToken']);
const completeBody = bodyOf({ fencingToken: either(validToken), outputs: anyJson }, ['fencingToken']);
const confirmBody = bodyOf(
  {
    fencingToken: either(validToken),
    destinationRef: either(fc.constantFrom('INV-1', '', '0')),
    outputs: anyJson,
    completeStep: fc.oneof(
      {
        weight: 3,
        arbitrary: bodyOf({ name: either(fc.constantFrom('create-invoice')), outputs: anyJson }, ['name']),
      },
      { weight: 1, arbitrary: anyJson },
    ),
  },
  ['fencingToken'],
);
const renewBody = bodyOf(
  {
    fencingToken: either(validToken),
    leaseMs: either(fc.integer({ min: MIN_LEASE_MS, max: MAX_LEASE_MS })),
  },
  ['fencingToken', 'leaseMs'],
);

const HOT: [string, Dto, fc.Arbitrary<Body>][] = [
  ['ClaimRequestDto', ClaimRequestDto, claimBody],
  ['StartStepRequestDto', StartStepRequestDto, startBody],
  ['CompleteStepRequestDto', CompleteStepRequestDto, completeBody],
  ['ConfirmRequestDto', ConfirmRequestDto, confirmBody],
  ['RenewLeaseRequestDto', RenewLeaseRequestDto, renewBody],
];

/** The differential property: the check and class-validator agree on every generated body. */
function agreement(cls: Dto, bodies: fc.Arbitrary<Body>, check: BodyCheck) {
  return fc.property(bodies, (body) => check(body) === classValidatorAccepts(cls, body));
}

describe.each(HOT)('%s: compiled check', (_name, cls, bodies) => {
  const check = compiledCheckOf(cls)!;

  it('is compiled (the DTO is marked and uses only what the compiler knows)', () => {
    expect(check).toEqual(expect.any(Function));
  });

  it('accepts exactly what class-validator accepts', () => {
    fc.assert(agreement(cls, bodies, check), { numRuns: 3000 });
  });

  it('the generated bodies hold both verdicts often (the property is not vacuous)', () => {
    const sample = fc.sample(bodies, { numRuns: 2000, seed: 7 });
    const accepted = sample.filter((b) => classValidatorAccepts(cls, b)).length;
    expect(accepted).toBeGreaterThan(100);
    expect(sample.length - accepted).toBeGreaterThan(100);
  });
});

describe('a loosened check is caught by the same property', () => {
  const withoutField = (check: BodyCheck, field: string): BodyCheck => {
    return (body) => {
      const { [field]: _dropped, ...rest } = body as Body;
      return check(rest);
    };
  };
  it.each([
    { name: 'ClaimRequestDto', cls: ClaimRequestDto, bodies: claimBody, field: 'leaseMs' },
    { name: 'ClaimRequestDto', cls: ClaimRequestDto, bodies: claimBody, field: 'supersedes' },
    { name: 'ClaimRequestDto', cls: ClaimRequestDto, bodies: claimBody, field: 'workerId' },
    { name: 'ClaimRequestDto', cls: ClaimRequestDto, bodies: claimBody, field: 'startStep' },
    { name: 'ConfirmRequestDto', cls: ConfirmRequestDto, bodies: confirmBody, field: 'completeStep' },
    { name: 'ConfirmRequestDto', cls: ConfirmRequestDto, bodies: confirmBody, field: 'destinationRef' },
    {
      name: 'CompleteStepRequestDto',
      cls: CompleteStepRequestDto,
      bodies: completeBody,
      field: 'fencingToken',
    },
    { name: 'RenewLeaseRequestDto', cls: RenewLeaseRequestDto, bodies: renewBody, field: 'leaseMs' },
    { name: 'StartStepRequestDto', cls: StartStepRequestDto, bodies: startBody, field: 'fencingToken' },
  ])('$name without its rules for $field', ({ cls, bodies, field }) => {
    const loose = withoutField(compiledCheckOf(cls)!, field);
    expect(fc.check(agreement(cls, bodies, loose), { numRuns: 3000 }).failed).toBe(true);
  });

  it('a key part rule dropped in the nested key', () => {
    const strict = compiledCheckOf(ClaimRequestDto)!;
    const loose: BodyCheck = (body) => {
      const b = body as Body;
      const k = b['key'];
      if (typeof k !== 'object' || k === null || Array.isArray(k)) return strict(body);
      return strict({ ...b, key: { ...(k as Body), tenant: 'acme-gmbh' } });
    };
    expect(fc.check(agreement(ClaimRequestDto, claimBody, loose), { numRuns: 3000 }).failed).toBe(true);
  });
});

describe('what the handler is given', () => {
  it('an accepted claim gives the same claim request as class-transformer’s DTO', () => {
    fc.assert(
      fc.property(claimBody, (body) => {
        if (!compiledCheckOf(ClaimRequestDto)!(body)) return;
        const viaDto = claimRequestOf(plainToInstance(ClaimRequestDto, structuredClone(body)));
        expect(claimRequestOf(body as unknown as ClaimRequestDto)).toEqual(viaDto);
      }),
      { numRuns: 1000 },
    );
  });

  it('an accepted body passes the pipe as parsed (no class-transformer copy)', async () => {
    const body = { key: { tenant: 't', source: 's', action: 'a', subject: 'x' }, payload: { n: 1 } };
    const out = await ledgerValidationPipe().transform(body, { type: 'body', metatype: ClaimRequestDto });
    expect(out).toBe(body);
  });

  it('a refused body still gets class-validator’s words through the pipe', async () => {
    const body = { key: { tenant: 't', source: 's', action: 'a', subject: 'x' }, leaseMs: '30000' };
    const refusal = ledgerValidationPipe().transform(body, { type: 'body', metatype: ClaimRequestDto });
    await expect(refusal).rejects.toBeInstanceOf(ProblemException);
    await expect(refusal).rejects.toMatchObject({
      problem: {
        code: 'validation',
        errors: [{ field: 'leaseMs', message: 'leaseMs must be an integer number, not the string "30000"' }],
      },
    });
  });

  it('an unmarked DTO gets no check; a class without rules accepts nothing (forbidUnknownValues)', () => {
    class Unmarked {}
    expect(compiledCheckOf(Unmarked)).toBeNull();
    expect(compileBodyCheck(Unmarked)!({})).toBe(false);
  });
});

describe('what the compiler leaves to class-validator alone', () => {
  it('a transform that changes the value', () => {
    @CompiledCheck()
    class Trimmed {
      @IsString()
      @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
      name!: string;
    }
    expect(compiledCheckOf(Trimmed)).toBeNull();
  });

  it('a rule applied to each item of an array', () => {
    @CompiledCheck()
    class Numbers {
      @IsInt({ each: true })
      values!: number[];
    }
    expect(compiledCheckOf(Numbers)).toBeNull();
  });

  it('a nested object without @Type (class-validator would refuse it as unknown)', () => {
    class Part {
      @IsString()
      name!: string;
    }
    @CompiledCheck()
    class Whole {
      @ValidateNested()
      part!: Part;
    }
    @CompiledCheck()
    class Typed {
      @ValidateNested()
      @Type(() => Part)
      part!: Part;
    }
    expect(compiledCheckOf(Whole)).toBeNull();
    expect(compiledCheckOf(Typed)!({ part: { name: 'x' } })).toBe(true);
    expect(compiledCheckOf(Typed)!({ part: [{ name: 'x' }] })).toBe(false);
  });
});
