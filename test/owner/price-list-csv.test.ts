import { describe, expect, it } from 'vitest';
import { importPriceList, parseCsv, priceListCsv, writeCsv } from '../../demo/owner/editor/panels/price-list-csv.js';
import { stoolCopy } from '../server/wire/configurator/demo-stool.js';

/** The option blocks of imported data, as the tests read them. */
const blocksOf = (data: { sceneData: Record<string, unknown> }) => data.sceneData.optionBlocks as any[];

const HEADER = 'blockId,blockName,choiceId,label,price,sku\r\n';

describe('price list CSV', () => {
  it('round-trips fields with quotes, commas, line breaks and non-ASCII text', () => {
    const rows = [['a', 'say "hi"', 'one,two', 'line\nbreak', 'crlf\r\nend', 'Æble ü €', '']];
    expect(parseCsv(writeCsv(rows)).rows).toEqual(rows);
    expect(writeCsv([['x,y', 'q"']])).toBe('"x,y","q"""\r\n');
  });

  it('reads LF line ends, a BOM and a last row without a line end', () => {
    expect(parseCsv('\uFEFFa,b\nc,"d\ne"').rows).toEqual([
      ['a', 'b'],
      ['c', 'd\ne'],
    ]);
  });

  it('reports a quote that never closes', () => {
    expect(parseCsv('a,"b\r\n').error).toMatch(/never closes/);
  });

  it('exports every choice with its block', () => {
    const data = stoolCopy();
    data.sceneData.optionBlocks[0].choices[1].sku = 'WAL,NUT';
    expect(priceListCsv(data).split('\r\n').slice(0, 3)).toEqual([
      'blockId,blockName,choiceId,label,price,sku',
      'seat,Seat,oak,Oak,,',
      'seat,Seat,walnut,Walnut,40,"WAL,NUT"',
    ]);
  });

  it('writes text a spreadsheet would run as a formula with a leading apostrophe, and reads it back as it was', () => {
    const data = stoolCopy();
    const walnut = data.sceneData.optionBlocks[0].choices[1];
    walnut.label = '=HYPERLINK("https://evil.example","Click")';
    walnut.sku = '@SUM(A1)';
    const csv = priceListCsv(data);
    expect(csv).toContain(`'=HYPERLINK`);
    expect(csv).toContain(`,40,'@SUM(A1)`);
    const result = importPriceList(data, csv);
    expect(result.problems).toEqual([]);
    expect(result.changed).toBe(0);
    // A negative price stays a number, and an apostrophe the owner typed before other text is kept.
    const edited = importPriceList(data, csv.replace(',40,', ',-5,').replace('Oak,', `'Oak,`));
    expect(blocksOf(edited.data)[0].choices[1].price).toBe(-5);
    expect(blocksOf(edited.data)[0].choices[0].label).toBe(`'Oak`);
  });

  it('changes only label, price and sku of matched rows and keeps every other field', () => {
    const data = stoolCopy();
    const csv = priceListCsv(data).replace('walnut,Walnut,40,', 'walnut,"Walnut ""dark""",-12.5,W-1');
    const result = importPriceList(data, `\uFEFF${csv}`);
    expect(result.problems).toEqual([]);
    expect(result.changed).toBe(1);
    const walnut = blocksOf(result.data)[0].choices[1] as Record<string, unknown>;
    expect(walnut).toEqual({
      ...data.sceneData.optionBlocks[0].choices[1],
      label: 'Walnut "dark"',
      price: -12.5,
      sku: 'W-1',
    });
    expect(result.data.models).toBe(data.models);
    expect(data.sceneData.optionBlocks[0].choices[1].price).toBe(40);
  });

  it('lists unknown rows and bad prices with their row numbers and applies nothing of them', () => {
    const data = stoolCopy();
    const csv =
      HEADER +
      'seat,Seat,walnut,Walnut,forty,\r\n' +
      'seat,Seat,teak,Teak,10,\r\n' +
      'legs,Legs,brass,Brass,1e12,\r\n' +
      'legs,Legs,brass,Brass,2000000000,\r\n' +
      'legs,Legs,steel,Steel,5\r\n' +
      'backrest,Backrest,on,On,35,\r\n';
    const result = importPriceList(data, csv);
    expect(result.problems.map((p) => p.row)).toEqual([2, 3, 4, 5, 6]);
    expect(result.problems[0].message).toContain('Price must be a number between -1,000,000,000 and 1,000,000,000');
    expect(result.problems[1].message).toBe('No choice "teak" in block "seat".');
    expect(result.changed).toBe(1);
    expect(blocksOf(result.data)[2].choices[1].price).toBe(35);
    expect(blocksOf(result.data)[0].choices[1].price).toBe(40);
  });

  it('refuses a file without the columns and removes a price left empty', () => {
    const data = stoolCopy();
    expect(importPriceList(data, 'id,price\r\nseat,1\r\n').problems[0].row).toBe(1);
    const result = importPriceList(data, HEADER + 'seat,Seat,walnut,Walnut,,\r\n');
    expect(blocksOf(result.data)[0].choices[1]).not.toHaveProperty('price');
  });

  it('changes nothing when the list is as exported', () => {
    const data = stoolCopy();
    const result = importPriceList(data, priceListCsv(data));
    expect(result).toEqual({ data, changed: 0, problems: [] });
  });
});
