const FAST_PARSER = Symbol('fastParser');

/**
 * Builds a body DTO's instance from input it can tell is valid, exactly as class-transformer and
 * class-validator would leave it; undefined for anything else, which then goes through them.
 */
export type FastParser<T extends object = object> = (raw: object) => T | undefined;

/**
 * A body DTO whose common shape is parsed by hand: class-validator costs ~70 µs per nested object
 * (40 ms for a batch of 500 events). The parser only decides that input is valid; everything it does
 * not accept, valid or not, is validated as usual, so the 422s stay class-validator's.
 */
export function FastParse<T extends object>(parser: FastParser<T>): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(FAST_PARSER, parser, target);
  };
}

export function fastParserOf(dto: object): FastParser | undefined {
  return Reflect.getMetadata(FAST_PARSER, dto) as FastParser | undefined;
}
