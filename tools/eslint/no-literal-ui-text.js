/**
 * `local/no-literal-ui-text`: a component's words come from the message catalogs (`t('id')`), so
 * every language gets them. Reports JSX text with letters, and string literals with letters given to
 * attributes a person reads or hears (aria-label, title, alt, placeholder, label…), in JSX and in
 * `{cond ? 'a' : 'b'}` or template-literal forms. Names that are the same in every language (the brand)
 * are allowed by the `allow` option.
 */
const READ_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'title',
  'alt',
  'placeholder',
  'label',
]);
const LETTERS = /\p{L}{2,}/u;

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'UI text comes from the message catalogs, not literals' },
    schema: [{ type: 'object', properties: { allow: { type: 'array', items: { type: 'string' } } } }],
    messages: {
      text: 'Text "{{text}}" is written in the component: put it in the message catalogs and use t().',
    },
  },
  create(context) {
    const allow = new Set(context.options[0]?.allow ?? []);
    const shown = (raw) => raw.replace(/\s+/g, ' ').trim();
    const check = (node, raw) => {
      const text = shown(raw);
      // Names that are the same in every language (the brand) may stand in any literal.
      let rest = text;
      for (const name of allow) rest = rest.split(name).join('');
      if (!LETTERS.test(rest)) return;
      context.report({ node, messageId: 'text', data: { text: text.length > 40 ? `${text.slice(0, 40)}…` : text } });
    };
    /** The string literals an attribute value may resolve to. */
    const literals = (expr, out = []) => {
      if (!expr) return out;
      if (expr.type === 'Literal' && typeof expr.value === 'string') out.push([expr, expr.value]);
      else if (expr.type === 'TemplateLiteral') for (const q of expr.quasis) out.push([q, q.value.cooked ?? '']);
      else if (expr.type === 'ConditionalExpression') {
        literals(expr.consequent, out);
        literals(expr.alternate, out);
      } else if (expr.type === 'LogicalExpression') literals(expr.right, out);
      return out;
    };
    return {
      JSXText(node) {
        check(node, node.value);
      },
      JSXExpressionContainer(node) {
        // {'text'} or {cond ? 'a' : 'b'} as a child.
        if (node.parent?.type === 'JSXElement' || node.parent?.type === 'JSXFragment')
          for (const [n, v] of literals(node.expression)) check(n, v);
      },
      JSXAttribute(node) {
        const name = node.name.type === 'JSXIdentifier' ? node.name.name : '';
        if (!READ_ATTRIBUTES.has(name) || !node.value) return;
        if (node.value.type === 'Literal') check(node.value, String(node.value.value));
        else if (node.value.type === 'JSXExpressionContainer')
          for (const [n, v] of literals(node.value.expression)) check(n, v);
      },
    };
  },
};
