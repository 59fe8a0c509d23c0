/** Where @nestjs/swagger keeps @ApiProperty metadata (its constants module is not exported). */
const DECORATORS = {
  API_MODEL_PROPERTIES: 'swagger/apiModelProperties',
  API_MODEL_PROPERTIES_ARRAY: 'swagger/apiModelPropertiesArray',
} as const;

type Class = abstract new (...args: never[]) => object;

/** The OpenAPI property names of a response class, in declaration order (inherited ones first). */
function propertiesOf(type: Class): string[] {
  const names: string[] = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, type.prototype) ?? [];
  return [...new Set(names.map((name) => name.replace(/^:/, '')))];
}

/** The class a nested property holds, when it is one object (not a list, not a scalar). */
function nestedClass(type: Class, property: string): Class | null {
  const meta = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, type.prototype, property) as
    { type?: unknown; isArray?: boolean } | undefined;
  if (!meta || meta.isArray || Array.isArray(meta.type) || typeof meta.type !== 'function') return null;
  // `type: () => X` (a lazy reference) has no prototype; a class has.
  const resolved = (meta.type.prototype === undefined ? (meta.type as () => unknown)() : meta.type) as Class;
  return typeof resolved === 'function' && propertiesOf(resolved).length > 0 ? resolved : null;
}

/**
 * The CSV columns of a list item: its field names, nested objects flattened with dots
 * (`engagement.stage`). From the response class, so every row has the same columns whatever it
 * holds (a null nested object leaves its columns empty) and an empty export still has its header.
 */
export function columnsOf(type: Class, prefix = ''): string[] {
  return propertiesOf(type).flatMap((property) => {
    const nested = nestedClass(type, property);
    return nested ? columnsOf(nested, `${prefix}${property}.`) : [`${prefix}${property}`];
  });
}
