import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderMailTags } from '../../../domain/shop/mail-tags.ts';
import {
  applyEmailWrite,
  applySubstitutionBlocks,
  composeStatusMail,
  downloadLinksList,
  nextBlockName,
  parseOrderNumber,
  removeTags,
  type StatusMailTemplate,
  type SubstitutionBlock,
} from '../../../domain/shop/status-mail.ts';

const shopDeliveries = new Set([3, 7]);
const block = (name: string, deliveryTypeId: number, content = `<p>${name}</p>`): SubstitutionBlock => ({ name, delivery_type_id: deliveryTypeId, content });

describe('nextBlockName', () => {
  it('is DOSTAWA_<delivery>_<n> with n one above the highest of that delivery, other deliveries ignored', () => {
    expect(nextBlockName(3, [])).toBe('DOSTAWA_3_1');
    expect(nextBlockName(3, ['DOSTAWA_3_1', 'DOSTAWA_3_4', 'DOSTAWA_7_9', 'DOSTAWA_33_12'])).toBe('DOSTAWA_3_5');
    expect(nextBlockName(7, ['DOSTAWA_3_1'])).toBe('DOSTAWA_7_1');
  });

  it('never gives a name that is taken (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.array(fc.tuple(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 99 }))), (delivery, pairs) => {
        const taken = pairs.map(([d, n]) => `DOSTAWA_${d}_${n}`);
        const name = nextBlockName(delivery, taken);
        expect(taken).not.toContain(name);
        expect(name.startsWith(`DOSTAWA_${delivery}_`)).toBe(true);
      }),
    );
  });
});

describe('applySubstitutionBlocks (rule 4)', () => {
  const current = [block('DOSTAWA_3_1', 3), block('DOSTAWA_3_2', 3), block('DOSTAWA_7_1', 7)];

  it('keeps and changes named blocks, creates unnamed ones with the next free number, deletes the omitted', () => {
    const result = applySubstitutionBlocks(
      current,
      [{ name: 'DOSTAWA_3_2', content: 'new' }, { delivery_type_id: 3, content: 'third' }, { delivery_type_id: 7, content: 'second of 7' }, { delivery_type_id: 3, content: 'fourth' }],
      shopDeliveries,
    );
    expect(result).toEqual({
      ok: true,
      blocks: [block('DOSTAWA_3_2', 3, 'new'), block('DOSTAWA_3_3', 3, 'third'), block('DOSTAWA_7_2', 7, 'second of 7'), block('DOSTAWA_3_4', 3, 'fourth')],
      removed: ['DOSTAWA_3_1', 'DOSTAWA_7_1'],
    });
  });

  it('keeps a block\'s content when only its name is sent, and an empty list deletes every block', () => {
    expect(applySubstitutionBlocks(current, [{ name: 'DOSTAWA_7_1' }], shopDeliveries)).toMatchObject({ ok: true, blocks: [current[2]] });
    expect(applySubstitutionBlocks(current, [], shopDeliveries)).toEqual({ ok: true, blocks: [], removed: ['DOSTAWA_3_1', 'DOSTAWA_3_2', 'DOSTAWA_7_1'] });
  });

  it('does not give a deleted block\'s number again in the same write', () => {
    const result = applySubstitutionBlocks(current, [{ delivery_type_id: 3, content: 'x' }], shopDeliveries);
    expect(result).toMatchObject({ ok: true, blocks: [{ name: 'DOSTAWA_3_3' }] });
  });

  it.each([
    ['a value that is not an array', { name: 'DOSTAWA_3_1' }, 'email.delivery_type_substitutions'],
    ['an unknown name', [{ name: 'DOSTAWA_3_9', content: 'x' }], 'email.delivery_type_substitutions.0.name'],
    ['a delivery of another shop', [{ delivery_type_id: 99, content: 'x' }], 'email.delivery_type_substitutions.0.delivery_type_id'],
    ['moving a block to another delivery', [{ name: 'DOSTAWA_3_1', delivery_type_id: 7 }], 'email.delivery_type_substitutions.0.delivery_type_id'],
    ['a new block without delivery', [{ content: 'x' }], 'email.delivery_type_substitutions.0.delivery_type_id'],
    ['a new block without content', [{ delivery_type_id: 3 }], 'email.delivery_type_substitutions.0.content'],
    ['a name listed twice', [{ name: 'DOSTAWA_3_1' }, { name: 'DOSTAWA_3_1' }], 'email.delivery_type_substitutions.1.name'],
    ['an item that is not an object', ['DOSTAWA_3_1'], 'email.delivery_type_substitutions.0'],
  ])('refuses %s, naming the field', (_, sent, field) => {
    const result = applySubstitutionBlocks(current, sent, shopDeliveries);
    expect(result.ok).toBe(false);
    expect(Object.keys((result as { errors: object }).errors)).toContain(field);
  });
});

describe('applyEmailWrite (rules 2 and 4)', () => {
  const template: StatusMailTemplate = {
    subject: 'Order {{NUMER_ZAMOWIENIA}}',
    content: '<p>Hi</p>{{DOSTAWA_3_1}}{{ DOSTAWA_7_1 }}',
    electronic_order_substitution_content: 'E {{DOSTAWA_3_1}}',
    delivery_type_substitutions: [block('DOSTAWA_3_1', 3), block('DOSTAWA_7_1', 7)],
  };

  it('needs subject and content for the first mail of a status', () => {
    expect(applyEmailWrite(null, { subject: 'Hello' }, shopDeliveries)).toEqual({ ok: false, errors: { 'email.content': [expect.any(String)] } });
    expect(applyEmailWrite(null, { content: 'x' }, shopDeliveries)).toEqual({ ok: false, errors: { 'email.subject': [expect.any(String)] } });
    expect(applyEmailWrite(null, { subject: 'S', content: 'C' }, shopDeliveries)).toEqual({
      ok: true,
      template: { subject: 'S', content: 'C', electronic_order_substitution_content: null, delivery_type_substitutions: [] },
    });
  });

  it('changes only the sent fields of an existing mail and keeps the blocks without the key', () => {
    expect(applyEmailWrite(template, { subject: 'New' }, shopDeliveries)).toEqual({ ok: true, template: { ...template, subject: 'New' } });
  });

  it('removes the tag of a deleted block from the content and the electronic substitution', () => {
    const result = applyEmailWrite(template, { delivery_type_substitutions: [{ name: 'DOSTAWA_7_1' }] }, shopDeliveries);
    expect(result).toMatchObject({ ok: true, template: { content: '<p>Hi</p>{{ DOSTAWA_7_1 }}', electronic_order_substitution_content: 'E ', delivery_type_substitutions: [template.delivery_type_substitutions[1]] } });
  });
});

describe('composeStatusMail', () => {
  const template: StatusMailTemplate = {
    subject: 'Order {{NUMER_ZAMOWIENIA}}',
    content: '<p>Hi {{IMIE}}</p>{{DOSTAWA_3_1}}{{DOSTAWA_7_1}}{{DOSTAWA_9_9}}<footer>{{LINKI_DO_POBRANIA}}</footer>',
    electronic_order_substitution_content: '<p>Your files</p>{{LINKI_DO_POBRANIA}}',
    delivery_type_substitutions: [block('DOSTAWA_3_1', 3, '<b>Parcel {{NUMER_PACZKI}}</b>'), block('DOSTAWA_7_1', 7, '<i>Pick-up</i>')],
  };
  const tags = orderMailTags({ ordinalNumber: 12, email: 'a@example.com', firstName: 'Ann <3', lastName: '', total: '10.00', currency: 'PLN', statusName: 'Sent', trackingNumber: 'TRK-1', deliveryMethod: 'Courier' });

  it('fills the block of the chosen delivery (tracking number in it), drops the other blocks\' tags, escapes tag values', () => {
    const mail = composeStatusMail(template, { tags, deliveryTypeId: 3, electronic: false, downloadLinksHtml: '<ul><li>x</li></ul>' });
    expect(mail.subject).toBe('Order 12');
    expect(mail.html).toBe('<p>Hi Ann &lt;3</p><b>Parcel TRK-1</b>{{DOSTAWA_9_9}}<footer><ul><li>x</li></ul></footer>');
  });

  it('removes every block tag without a delivery, and the order tags are empty without an order', () => {
    const mail = composeStatusMail(template, { tags: orderMailTags(null), deliveryTypeId: null, electronic: false, downloadLinksHtml: '' });
    expect(mail).toEqual({ subject: 'Order ', html: '<p>Hi </p>{{DOSTAWA_9_9}}<footer></footer>' });
  });

  it('uses the electronic substitution as the body of an order with an electronic product', () => {
    const mail = composeStatusMail(template, { tags, deliveryTypeId: 3, electronic: true, downloadLinksHtml: '<ul>L</ul>' });
    expect(mail.html).toBe('<p>Your files</p><ul>L</ul>');
    const plain = composeStatusMail({ ...template, electronic_order_substitution_content: null }, { tags, deliveryTypeId: 7, electronic: true, downloadLinksHtml: '' });
    expect(plain.html).toContain('<i>Pick-up</i>');
  });
});

describe('small helpers', () => {
  it('removeTags drops only the named tags', () => {
    expect(removeTags('a{{X_1}}b{{ Y }}c{{X_1}}', ['X_1'])).toBe('ab{{ Y }}c');
  });

  it('downloadLinksList escapes names and links', () => {
    expect(downloadLinksList([{ href: 'https://s/downloads/t?a=1&b=2', name: '<book>.pdf' }])).toBe('<ul><li><a href="https://s/downloads/t?a=1&amp;b=2">&lt;book&gt;.pdf</a></li></ul>');
    expect(downloadLinksList([])).toBe('');
  });

  it('parseOrderNumber reads 123 and #123 only', () => {
    expect(parseOrderNumber('#15')).toBe(15);
    expect(parseOrderNumber(' 15 ')).toBe(15);
    expect(parseOrderNumber(15)).toBe(15);
    for (const bad of ['', '#', 'abc', '0', '-3', '1.5', '99999999999']) expect(parseOrderNumber(bad)).toBeNull();
  });
});
