// An operator's reason is recorded for the people who read an operation's history later: one of
// spaces, tabs or newlines only says nothing, so every operator body that records a reason refuses
// it (400 naming `reason`), as it refuses an empty one. A worker's reasons (`unknown`,
// `not-performed`) are not checked so: an uncertain outcome is recorded whatever its text.
import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { flattenValidationErrors } from '../../src/common/validation.js';
import { OperatorActionRequestDto } from '../../src/operations/policy-commands/policy-command-requests.dto.js';
import { ReferenceRequestDto, ResolveRequestDto } from '../../src/operations/resolve/resolve-request.dto.js';
import { SetPolicyRequestDto } from '../../src/policies/set-policy.dto.js';

const bodies: [string, new () => object, object][] = [
  ['resolve', ResolveRequestDto, { resolution: 'not_found' }],
  ['reference', ReferenceRequestDto, { destinationRef: 'INV-1' }],
  ['operator action', OperatorActionRequestDto, {}],
  ['policy', SetPolicyRequestDto, { policy: { mode: 'at-most-once' } }],
];

async function errorsOf(dto: new () => object, body: object) {
  return flattenValidationErrors(await validate(plainToInstance(dto, body)));
}

it.each(bodies)('%s: a reason of whitespace only is refused, naming the field', async (_name, dto, rest) => {
  for (const reason of [' ', '   ', '\t\n ', '\u00a0']) {
    const reasonErrors = (await errorsOf(dto, { ...rest, reason })).filter((e) => e.field === 'reason');
    expect(reasonErrors).toEqual([{ field: 'reason', message: 'reason must not be blank' }]);
  }
});

it.each(bodies)('%s: a reason with words around spaces is taken as written', async (_name, dto, rest) => {
  const errors = await errorsOf(dto, { ...rest, reason: '  found INV-42  ' });
  expect(errors.filter((e) => e.field === 'reason')).toEqual([]);
});
