import { plainToInstance } from 'class-transformer';
import { IsString, validateSync } from 'class-validator';
import { withoutReservedKeys } from './reserved-keys';

class Named {
  @IsString()
  name: string;
}

describe('withoutReservedKeys', () => {
  it('returns the value itself when nothing is reserved', () => {
    const value = { name: 'x', list: [{ a: 1 }, 'b'], nested: { deep: { c: null } } };
    expect(withoutReservedKeys(value)).toBe(value);
    expect(withoutReservedKeys('text')).toBe('text');
  });

  it('drops constructor and __proto__ keys at every depth, leaving the input untouched', () => {
    const input = JSON.parse(
      '{"name":"x","__proto__":{"name":"y"},"constructor":{},"a":[{"constructor":{"b":1},"c":2}],"d":{"__proto__":[]}}',
    ) as object;
    const copy = withoutReservedKeys(input);
    expect(copy).toEqual({ name: 'x', a: [{ c: 2 }], d: {} });
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(input)).toEqual(['name', '__proto__', 'constructor', 'a', 'd']);
  });

  it('keeps class-transformer from taking a nested constructor key for a class (it threw)', () => {
    const raw = { name: 'x', extra: { constructor: {} } };
    expect(() => plainToInstance(Named, raw)).toThrow(TypeError);
    expect(validateSync(plainToInstance(Named, withoutReservedKeys(raw)))).toEqual([]);
  });

  it('copies any depth without recursion', () => {
    let deep: unknown = { constructor: {} };
    for (let i = 0; i < 100_000; i++) deep = [deep];
    let copy = withoutReservedKeys(deep);
    for (let i = 0; i < 100_000; i++) copy = (copy as unknown[])[0];
    expect(copy).toEqual({});
  });
});
