// Cost formatting as TEC's tribe_get_cost( $id, true ) and REST cost_details produce them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCost, formatCostOnce, splitCurrency } from './cost.ts';

const none = { symbol: '', code: '', position: '' };

describe('formatCost', () => {
  it.each([
    { rows: [], currency: none, cost: '', values: [] },
    { rows: [''], currency: none, cost: '', values: [] },
    { rows: ['20'], currency: none, cost: '$20', values: ['20'] },
    {
      rows: ['20'],
      currency: { symbol: '€', code: 'EUR', position: 'postfix' },
      cost: '20€',
      values: ['20'],
    },
    { rows: ['20'], currency: { symbol: '£', code: 'GBP', position: 'prefix' }, cost: '£20', values: ['20'] },
    { rows: ['0'], currency: none, cost: 'Free', values: ['0'] },
    { rows: ['0.00'], currency: none, cost: 'Free', values: ['0.00'] },
    { rows: ['10 - 25'], currency: none, cost: '$10 – $25', values: ['10', '25'] },
    { rows: ['25', '10'], currency: none, cost: '$10 – $25', values: ['10', '25'] },
    // "10," is not PHP-numeric, so TEC's min/max step drops it: the cost shows only the other value.
    { rows: ['10, 25'], currency: none, cost: '$25', values: ['10.', '25'] },
    // TEC's cost regex reads "10,25" as one European-decimal value, not a range.
    { rows: ['10,25'], currency: none, cost: '$10,25', values: ['10.25'] },
    {
      rows: ['20$'],
      currency: { symbol: '$', code: 'USD', position: 'postfix' },
      cost: '20$',
      values: ['20'],
    },
    { rows: ['0 - 15'], currency: none, cost: 'Free – $15', values: ['0', '15'] },
    { rows: ['Donation'], currency: none, cost: 'Donation', values: ['donation'] },
    {
      rows: ['<b>Free entry</b>'],
      currency: none,
      cost: '&lt;b&gt;Free entry&lt;/b&gt;',
      values: ['b-free-entry-b'],
    },
  ])('formats $rows with $currency.position as "$cost"', ({ rows, currency, cost, values }) => {
    const out = formatCost(rows, currency);
    expect(out.cost).toBe(cost);
    expect(out.cost_details.values).toEqual(values);
  });

  it('keeps the stored currency fields in cost_details, in TEC key order', () => {
    const out = formatCost(['5'], { symbol: '€', code: 'EUR', position: 'postfix' });
    expect(Object.keys(out.cost_details)).toEqual([
      'currency_symbol',
      'currency_code',
      'currency_position',
      'values',
    ]);
    expect(out.cost_details).toMatchObject({
      currency_symbol: '€',
      currency_code: 'EUR',
      currency_position: 'postfix',
    });
  });

  it('formats any list of whole amounts as the currency-prefixed min and max', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 100000 }), { minLength: 1, maxLength: 6 }),
        (amounts) => {
          const min = Math.min(...amounts);
          const max = Math.max(...amounts);
          const { cost } = formatCost(amounts.map(String), none);
          expect(cost).toBe(min === max ? `$${min}` : `$${min} – $${max}`);
        },
      ),
    );
  });

  it('never throws and always returns strings for arbitrary stored rows', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), fc.string(), (rows, position) => {
        const out = formatCost(rows, { symbol: '', code: '', position });
        expect(typeof out.cost).toBe('string');
        for (const v of out.cost_details.values) expect(typeof v).toBe('string');
      }),
    );
  });
});

describe('formatCost looked up', () => {
  const row = fc.oneof(
    fc.constantFrom('', '0', '10', '10,25', '5 - 20', 'Free', 'donation', '€5', '1.000,50'),
    fc.string({ maxLength: 12 }),
  );
  const currencies = fc.record({
    symbol: fc.constantFrom('', '$', '€', 'kr'),
    code: fc.constantFrom('', 'USD', 'EUR'),
    position: fc.constantFrom('', 'prefix', 'postfix', 'suffix'),
  });

  it('answers as working it out does, the first time and every time after', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 4 }), currencies, (rows, currency) => {
        const want = formatCostOnce(rows, currency);
        expect(formatCost(rows, currency)).toEqual(want);
        expect(formatCost(rows, currency)).toEqual(want);
      }),
    );
  });

  it('tells rows apart from one row holding what a separator could join', () => {
    const none = { symbol: '$', code: '', position: 'prefix' };
    expect(formatCost(['5', '20'], none).cost).toBe('$5 – $20');
    expect(formatCost(['5\u000020'], none)).toEqual(formatCostOnce(['5\u000020'], none));
    expect(formatCost(['5,20'], none)).toEqual(formatCostOnce(['5,20'], none));
  });

  it('gives each caller a copy of its own', () => {
    const none = { symbol: '', code: '', position: '' };
    const first = formatCost(['10', '20'], none);
    first.cost_details.values.push('99');
    first.cost_details.currency_code = 'XXX';
    expect(formatCost(['10', '20'], none)).toEqual(formatCostOnce(['10', '20'], none));
  });
});

describe('splitCurrency', () => {
  it.each<[string[], ReturnType<typeof splitCurrency>]>([
    [['20$'], { values: ['20'], symbol: '$', position: 'postfix' }],
    [['$20'], { values: ['20'], symbol: '$', position: 'prefix' }],
    [['0€', '20€', '30 €'], { values: ['0', '20', '30'], symbol: '€', position: 'postfix' }],
    [['USD 10,50'], { values: ['10,50'], symbol: 'USD', position: 'prefix' }],
    [['20'], null],
    [['Free'], null],
    [['10 - 20'], null],
  ])('%j → %j', (costs, expected) => {
    expect(splitCurrency(costs)).toEqual(expected);
  });

  it('formats a postfix cost as TEC does once stored', () => {
    const split = splitCurrency(['0$', '20$', '30$'])!;
    const { cost, cost_details } = formatCost([split.values.join(' - ')], {
      symbol: '$',
      code: '',
      position: 'postfix',
    });
    expect(cost).toBe('Free – 30$');
    expect(cost_details.values).toEqual(['0', '20', '30']);
  });
});
