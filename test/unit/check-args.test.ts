import { checkArgs, checkEditedArgs } from '../../core/check-args';

const schema = {
  type: 'object',
  properties: {
    email: { type: 'string' },
    days: { type: 'integer' },
    kind: { type: 'string', enum: ['vacation', 'sick'] },
    tags: { type: 'array', items: { type: 'string' } },
    address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  required: ['email', 'days'],
  additionalProperties: false,
};

describe('checkArgs', () => {
  it('accepts valid args', () => {
    expect(
      checkArgs(schema, { email: 'a@b.c', days: 2, kind: 'sick', tags: ['x'], address: { city: 'Oslo' } }),
    ).toEqual({ problems: [], missing: [] });
  });
  it('names missing required args (empty strings count as missing)', () => {
    expect(checkArgs(schema, { email: '' }).missing).toEqual(['email', 'days']);
  });
  it('reports wrong types, enum values, unknown args, array items and nested objects', () => {
    const { problems } = checkArgs(schema, { email: 'a', days: 1.5, kind: 'fun', extra: 1, tags: [3], address: {} });
    expect(problems).toEqual([
      '"days" must be integer, got a number',
      '"kind" must be one of "vacation", "sick"',
      'unknown argument "extra"',
      '"tags[0]" must be string, got a number',
      'address: missing required argument(s): city',
    ]);
  });
  it('rejects non-object args', () => {
    expect(checkArgs(schema, [1]).problems).toEqual(['arguments must be a JSON object']);
  });
});

describe('checkEditedArgs (the web chat, on arguments a person edits)', () => {
  it('takes JSON that fits the schema', () => {
    expect(checkEditedArgs('{"email": "a@b.c", "days": 2}', schema)).toEqual({ args: { email: 'a@b.c', days: 2 } });
  });
  it('names the first problem in a sentence for a person, as the workflow would refuse it', () => {
    expect(checkEditedArgs('{ "email": ', schema).error).toMatch(/^Not valid JSON: /);
    expect(checkEditedArgs('[1]', schema).error).toBe('The arguments must be a JSON object: { "name": value, … }.');
    expect(checkEditedArgs('{"email": "a"}', schema).error).toBe('days is required.');
    expect(checkEditedArgs('{"email": "", "days": 1}', schema).error).toBe('email is required.');
    expect(checkEditedArgs('{"email": "a", "days": "2"}', schema).error).toBe(
      'days must be integer, not the string "2".',
    );
    expect(checkEditedArgs('{"email": "a", "days": 2, "kind": "fun"}', schema).error).toBe(
      'kind must be one of "vacation", "sick".',
    );
    expect(checkEditedArgs('{"email": "a", "days": 2, "x": 1}', schema).error).toBe(
      'x is not an argument of this tool.',
    );
    expect(checkEditedArgs('{"email": "a", "days": 2, "address": {"city": 7}}', schema).error).toBe(
      'address.city must be string, not the integer 7.',
    );
  });
  it('checks only that it is an object when the tool has no schema', () => {
    expect(checkEditedArgs('{"anything": 1}', undefined)).toEqual({ args: { anything: 1 } });
  });
});
