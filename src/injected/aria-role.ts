// Roles: explicit (the first valid token of role=) or implicit from the element, per HTML-AAM,
// with Chrome's choices where they differ from the letter of the spec. Runs in the page.

/** Roles whose elements get refs: what an agent can act on. */
export function isInteractiveRole(role: string): boolean {
  switch (role) {
    case 'button':
    case 'link':
    case 'textbox':
    case 'searchbox':
    case 'checkbox':
    case 'radio':
    case 'combobox':
    case 'listbox':
    case 'option':
    case 'menuitem':
    case 'menuitemcheckbox':
    case 'menuitemradio':
    case 'tab':
    case 'switch':
    case 'slider':
    case 'spinbutton':
    case 'treeitem':
    case 'gridcell':
    case 'scrollbar':
      return true;
  }
  return false;
}

export function isLandmarkRole(role: string): boolean {
  switch (role) {
    case 'banner':
    case 'complementary':
    case 'contentinfo':
    case 'form':
    case 'main':
    case 'navigation':
    case 'region':
    case 'search':
      return true;
  }
  return false;
}

/** Roles that take their name from their content (ARIA 1.2 "name from: contents"). */
export function allowsNameFromContent(role: string): boolean {
  switch (role) {
    case 'button':
    case 'cell':
    case 'checkbox':
    case 'columnheader':
    case 'gridcell':
    case 'heading':
    case 'link':
    case 'menuitem':
    case 'menuitemcheckbox':
    case 'menuitemradio':
    case 'option':
    case 'radio':
    case 'row':
    case 'rowheader':
    case 'switch':
    case 'tab':
    case 'tooltip':
    case 'treeitem':
    case 'term':
    case 'caption':
    case 'legend':
      return true;
  }
  return false;
}

function hasLandmarkAncestor(el: Element): boolean {
  return (
    el.parentElement?.closest(
      'article, aside, main, nav, section, [role=article], [role=complementary], [role=main], [role=navigation], [role=region]',
    ) != null
  );
}

function accessibleNameHint(el: Element): boolean {
  return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.hasAttribute('title');
}

function inputRole(input: HTMLInputElement): string {
  const type = input.type;
  switch (type) {
    case 'button':
    case 'submit':
    case 'reset':
    case 'image':
    case 'file':
    case 'color':
      return 'button';
    case 'checkbox':
      return input.getAttribute('role') === 'switch' ? 'switch' : 'checkbox';
    case 'radio':
      return 'radio';
    case 'range':
      return 'slider';
    case 'number':
      return 'spinbutton';
    case 'hidden':
      return 'none';
    case 'search':
      return input.hasAttribute('list') ? 'combobox' : 'searchbox';
    default:
      return input.hasAttribute('list') ? 'combobox' : 'textbox';
  }
}

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a table of HTML-AAM's implicit roles, one case per element; split, it would read worse.
function implicitRole(el: Element): string {
  const tag = el.localName;
  switch (tag) {
    case 'a':
    case 'area':
      return el.hasAttribute('href') ? 'link' : 'generic';
    case 'article':
      return 'article';
    case 'aside':
      return 'complementary';
    case 'blockquote':
      return 'blockquote';
    case 'button':
      return 'button';
    case 'code':
      return 'code';
    case 'dd':
      return 'definition';
    case 'del':
      return 'deletion';
    case 'details':
      return 'group';
    case 'dialog':
      return 'dialog';
    case 'dt':
      return 'term';
    case 'fieldset':
      return 'group';
    case 'figure':
      return 'figure';
    case 'footer':
      return hasLandmarkAncestor(el) ? 'generic' : 'contentinfo';
    case 'form':
      return 'form';
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      return 'heading';
    case 'header':
      return hasLandmarkAncestor(el) ? 'generic' : 'banner';
    case 'hr':
      return 'separator';
    case 'iframe':
      return 'iframe';
    case 'img':
      return el.getAttribute('alt') === '' && !accessibleNameHint(el) ? 'presentation' : 'img';
    case 'input':
      return inputRole(el as HTMLInputElement);
    case 'ins':
      return 'insertion';
    case 'li':
      return 'listitem';
    case 'main':
      return 'main';
    case 'math':
      return 'math';
    case 'menu':
    case 'ol':
    case 'ul':
      return 'list';
    case 'meter':
      return 'meter';
    case 'nav':
      return 'navigation';
    case 'optgroup':
      return 'group';
    case 'option':
      return 'option';
    case 'output':
      return 'status';
    case 'p':
      return 'paragraph';
    case 'progress':
      return 'progressbar';
    case 'search':
      return 'search';
    case 'section':
      return accessibleNameHint(el) ? 'region' : 'generic';
    case 'select': {
      const s = el as HTMLSelectElement;
      return s.multiple || s.size > 1 ? 'listbox' : 'combobox';
    }
    case 'summary':
      return 'button';
    case 'svg':
      return accessibleNameHint(el) ? 'img' : 'generic';
    case 'table':
      return 'table';
    case 'td':
      return el.closest('table')?.getAttribute('role') === 'grid' ? 'gridcell' : 'cell';
    case 'textarea':
      return 'textbox';
    case 'th':
      return el.getAttribute('scope') === 'row' ||
        (el.parentElement?.firstElementChild === el &&
          el.parentElement?.parentElement?.localName === 'tbody' &&
          el.closest('tr')?.querySelector('td') != null)
        ? 'rowheader'
        : 'columnheader';
    case 'time':
      return 'time';
    case 'tr':
      return 'row';
    case 'label':
    case 'legend':
    case 'figcaption':
    case 'caption':
      return 'none-labelling';
  }
  // An editing host (rich-text editors) is where an agent types: show it as a textbox. Chrome's
  // tree calls it generic; this is a deliberate difference (see ax-accuracy.test.ts).
  if ((el as HTMLElement).isContentEditable && !(el.parentElement as HTMLElement | null)?.isContentEditable)
    return 'textbox';
  return 'generic';
}

/** The element's role: the first recognised token of role=, else its implicit role. */
export function roleOf(el: Element): string {
  const explicit = el.getAttribute('role');
  if (explicit) {
    for (const token of explicit.trim().toLowerCase().split(/\s+/)) {
      if (token === 'none' || token === 'presentation') {
        // Presentational roles are ignored on focusable elements (ARIA conflict resolution).
        if ((el as HTMLElement).tabIndex >= 0 && el.hasAttribute('tabindex')) continue;
        return 'presentation';
      }
      if (token) return token;
    }
  }
  return implicitRole(el);
}
