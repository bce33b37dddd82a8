import { ref } from 'lit/directives/ref.js';

/** Sets styles through the CSSOM: the console's CSP (`style-src 'self'`) refuses style attributes, not properties. */
export const cssomStyle = (styles: Partial<CSSStyleDeclaration>) =>
  ref((el) => {
    if (el) Object.assign((el as HTMLElement).style, styles);
  });
