// The mapping's storage formats in the block editor (decodeMeta / encodeMeta of src/mapping/codec.ts), and
// useField: one calendar field of the post being edited, read and written in its mapped meta key or post field.
(({ data }, config) => {
  if (!config) return;
  const { useSelect, useDispatch } = data;

  const present = (v) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

  /** A value as REST shows it → the calendar value (flags as booleans, ids as numbers, text as strings). */
  function decode(v, src) {
    const first = Array.isArray(v) ? v[0] : v;
    switch (src.format) {
      case 'yes-flag':
      case 'one-flag':
        return first === 'yes' || first === '1' || first === 1 || first === true;
      case 'bool':
        if (first === undefined || first === null) return src.default === undefined ? false : !!src.default;
        return !(first === '' || first === '0' || first === 0 || first === false || first === 'false');
      case 'int':
        return present(first) && Number(first) > 0 ? Number(first) : null;
      case 'int-list':
        return (Array.isArray(v) ? v : present(v) ? [v] : []).map(Number).filter((n) => n > 0);
      default:
        return present(first) ? String(first) : '';
    }
  }

  /** The calendar value → what REST stores (null deletes the row, as the gateway's writes do). */
  function encode(value, src) {
    switch (src.format) {
      case 'yes-flag':
        return value ? 'yes' : null;
      case 'one-flag':
        return value ? '1' : null;
      case 'bool':
        return value ? '1' : '';
      case 'int':
        return value ? Number(value) : null;
      case 'int-list':
        return (value || []).map(Number);
      case 'string-list':
        return value === '' ? [] : [String(value)];
      case 'decimal':
        return value === '' || value == null ? null : String(value);
      default:
        return value == null ? '' : String(value);
    }
  }

  /** [value, set] of one calendar field of the edited post, or null when the mapping does not store it. */
  function useField(name) {
    const src = config.fields[name];
    const stored = useSelect(
      (select) => {
        if (!src) return undefined;
        const editor = select('core/editor');
        return src.meta
          ? editor.getEditedPostAttribute('meta')?.[src.meta]
          : editor.getEditedPostAttribute(src.post);
      },
      [name],
    );
    const { editPost } = useDispatch('core/editor');
    if (!src) return null;
    if (src.meta) return [decode(stored, src), (v) => editPost({ meta: { [src.meta]: encode(v, src) } })];
    // Sticky is TEC's menu_order -1 (writeRecord in src/mapping/codec.ts).
    if (src.post === 'menu_order') return [stored === -1, (v) => editPost({ menu_order: v ? -1 : 0 })];
    return [stored, (v) => editPost({ [src.post]: v })];
  }

  window.calendarGatewayFields = { decode, encode, useField };
})(window.wp, window.calendarGatewayPanels);
