import { ApiProperty } from '@nestjs/swagger';
import { columnsOf } from './columns';
import { cell, csvLine, csvRow, ndjsonRow } from './export-format';

class Engagement {
  @ApiProperty() stage: string;
  @ApiProperty() opens: number;
}

class Item {
  @ApiProperty() id: string;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ type: Engagement, nullable: true }) engagement: Engagement | null;
  @ApiProperty({ type: () => Engagement }) lazy: Engagement;
}

describe('export format', () => {
  it('names CSV columns from the response class, nested objects flattened with dots', () => {
    expect(columnsOf(Item)).toEqual(['id', 'tags', 'engagement.stage', 'engagement.opens', 'lazy.stage', 'lazy.opens']);
  });

  it('quotes per RFC 4180 and ends lines with CRLF', () => {
    expect(csvLine(['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\r'])).toBe(
      'plain,"a,b","say ""hi""","two\nlines","cr\r"\r\n',
    );
  });

  it('neutralises text that starts like a formula, and only that', () => {
    expect(['=SUM(A1)', '+1', '-cmd', '@x', 'a=b'].map(cell)).toEqual(["'=SUM(A1)", "'+1", "'-cmd", "'@x", 'a=b']);
    expect(cell(-3)).toBe('-3');
    expect(cell(null)).toBe('');
    expect(cell(false)).toBe('false');
    expect(cell(['a', 'b'])).toBe('["a","b"]');
  });

  it('writes a row with empty cells under a null nested object', () => {
    const columns = columnsOf(Item);
    expect(csvRow({ id: '=1', tags: [], engagement: null, lazy: { stage: 'lead', opens: 2 } }, columns)).toBe(
      `'=1,[],,,lead,2\r\n`,
    );
  });

  it('keeps NDJSON values verbatim', () => {
    expect(ndjsonRow({ a: '=x', b: null, c: { d: 1 } })).toBe('{"a":"=x","b":null,"c":{"d":1}}\n');
  });
});
