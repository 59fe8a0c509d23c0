const STRICT_DTO = Symbol('strictDto');

/** Marks a body DTO whose unknown properties are a 422 `extra_forbidden` (docs/api.md §4.6: "no other properties allowed"). */
export function StrictDto(): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(STRICT_DTO, true, target);
  };
}

export function isStrictDto(dto: object): boolean {
  return Reflect.getMetadata(STRICT_DTO, dto) === true;
}
