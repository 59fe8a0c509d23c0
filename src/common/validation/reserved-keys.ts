/**
 * `constructor` and `__proto__` as keys of a JSON body or query: class-transformer reads an own
 * `constructor` of a nested object as its class (`{"x":{"constructor":{}}}` made it throw: a 500),
 * and assigning `__proto__` replaces the prototype of the object it builds. No DTO has such a
 * field, so they are unknown fields, ignored as every unknown field is (docs/api.md §1.1); they are
 * taken out before the input is transformed. The 422 `input` still echoes what was sent.
 */
const RESERVED = new Set(['constructor', '__proto__']);

/** `value` itself when no object in it has a reserved key; otherwise a copy without them. */
export function withoutReservedKeys<T>(value: T): T {
  return hasReservedKeys(value) ? (copyWithout(value) as T) : value;
}

function hasReservedKeys(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      stack.push(...value);
      continue;
    }
    for (const key of Object.keys(value)) {
      if (RESERVED.has(key)) return true;
      stack.push((value as Record<string, unknown>)[key]);
    }
  }
  return false;
}

/** A deep copy of plain JSON data without reserved keys; iterative, so any depth is safe. */
function copyWithout(root: unknown): unknown {
  const copyOf = (value: unknown): unknown =>
    value === null || typeof value !== 'object' ? value : Array.isArray(value) ? [] : {};
  const result = copyOf(root);
  const stack: [unknown, unknown][] = [[root, result]];
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    if (source === null || typeof source !== 'object') continue;
    for (const [key, child] of Object.entries(source)) {
      if (!Array.isArray(source) && RESERVED.has(key)) continue;
      const copy = copyOf(child);
      if (Array.isArray(target)) target.push(copy);
      else Object.defineProperty(target, key, { value: copy, enumerable: true, writable: true, configurable: true });
      stack.push([child, copy]);
    }
  }
  return result;
}
