import { checkArgs } from '../../core/check-args';

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
