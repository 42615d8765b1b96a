/**
 * XML written as it is built (xmlbuilder2's callback builder): a feed pages through the catalogue
 * and hands each page's XML to the reply, so a large catalogue is never held whole in memory.
 */
import { Readable } from 'node:stream';
import { createCB } from 'xmlbuilder2';
import type { XMLBuilderCB } from 'xmlbuilder2/lib/interfaces.js';

/**
 * The text without what XML 1.0 cannot carry (control characters other than tab and line breaks,
 * unpaired surrogates, U+FFFE/U+FFFF); the builder escapes the rest (`&`, `<`, ...).
 */
export function xmlText(text: string): string {
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '');
}

/**
 * A readable of the document `write` builds: `write` yields after each part (a page of items),
 * and what was built so far is passed on then, waiting while the client reads slower.
 */
export function xmlStream(write: (xml: XMLBuilderCB) => AsyncIterable<unknown>): Readable {
  async function* chunks() {
    const pending: string[] = [];
    const xml = createCB({ prettyPrint: true });
    xml.on('data', (chunk: string) => pending.push(chunk));
    const flush = () => pending.splice(0).join('');
    for await (const _ of write(xml)) {
      const text = flush();
      if (text) yield text;
    }
    const rest = flush();
    if (rest) yield rest;
  }
  return Readable.from(chunks());
}

/** Appends `<name>text</name>` (cleaned, escaped) when `text` is not empty. */
export function textElement(xml: XMLBuilderCB, name: string, text: string | null | undefined): void {
  if (text) xml.ele(name).txt(xmlText(text)).up();
}
