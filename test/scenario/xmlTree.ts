// XML read by a strict, conforming parser (saxes: well-formedness errors throw), as a small tree,
// so tests check JUnit output as a CI system's reader would, not by comparing strings.
import { SaxesParser } from 'saxes';

export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  text: string;
}

export function parseXml(xml: string): XmlNode {
  const parser = new SaxesParser();
  const root: XmlNode = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [root];
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (tag) => {
    const node: XmlNode = {
      name: tag.name,
      attributes: tag.attributes as Record<string, string>,
      children: [],
      text: '',
    };
    stack.at(-1)!.children.push(node);
    stack.push(node);
  });
  parser.on('text', (t) => {
    stack.at(-1)!.text += t;
  });
  parser.on('closetag', () => void stack.pop());
  parser.write(xml).close();
  if (root.children.length !== 1) throw new Error(`expected one root element, got ${root.children.length}`);
  return root.children[0]!;
}

/** The children named `name`. */
export const childrenNamed = (n: XmlNode, name: string) => n.children.filter((c) => c.name === name);
