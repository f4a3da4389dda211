// A required field that is absent gets one message saying so, not one per constraint it fails
// ("reason must be longer than or equal to 1 characters; reason must be a string", a new user's
// report); a field that is present but wrong keeps its constraint messages.
import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { flattenValidationErrors } from '../../src/common/validation.js';
import { ResolveRequestDto } from '../../src/operations/resolve/resolve-request.dto.js';

async function errorsOf(body: object) {
  return flattenValidationErrors(await validate(plainToInstance(ResolveRequestDto, body)));
}

it('an absent required field: one "is required" message naming it', async () => {
  expect(await errorsOf({ resolution: 'not_found' })).toEqual([
    { field: 'reason', message: 'reason is required' },
  ]);
});

it('a present but wrong field keeps its constraint messages', async () => {
  const errors = await errorsOf({ resolution: 'not_found', reason: '' });
  expect(errors).toEqual([{ field: 'reason', message: expect.stringMatching(/longer than or equal to 1/) }]);
});

it('an optional field left out is no error', async () => {
  expect(await errorsOf({ resolution: 'abandoned', reason: 'gone' })).toEqual([]);
});
