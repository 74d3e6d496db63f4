// Venue and organizer picker of the Event details panel: finds existing records by search, creates one by name.
(({ element, components: c, i18n, apiFetch, htmlEntities }, config) => {
  if (!config) return;
  const { createElement: el, useState, useEffect } = element;
  const { __, sprintf } = i18n;
  const DOMAIN = 'calendar-gateway-companion';

  const titleOf = (post) =>
    htmlEntities.decodeEntities(post.title?.raw || post.title?.rendered || '') || `#${post.id}`;

  /** props: kind (venue|organizer), label, chosenLabel, placeholder, ids (the selection), multiple, onChange(ids). */
  function LinkedPicker(props) {
    const linked = config.linked[props.kind];
    const path = `/wp/v2/${linked.restBase}`;
    const [query, setQuery] = useState('');
    const [results, setResults] = useState([]);
    const [titles, setTitles] = useState({});
    const [error, setError] = useState('');

    // Titles of the chosen records (one's own drafts included, where the user may list them).
    useEffect(() => {
      const missing = props.ids.filter((id) => titles[id] === undefined);
      if (!missing.length) return;
      const list = `_fields=id,title&per_page=100&include=${missing.join(',')}`;
      apiFetch({ path: `${path}?${list}&context=edit&status=any` })
        .catch(() => apiFetch({ path: `${path}?${list}` }))
        .then((posts) => {
          const next = { ...titles };
          for (const p of posts) next[p.id] = titleOf(p);
          for (const id of missing) next[id] ??= `#${id}`;
          setTitles(next);
        });
    }, [props.ids.join(',')]);

    useEffect(() => {
      const q = query.trim();
      if (!q) {
        setResults([]);
        return;
      }
      let live = true;
      const timer = setTimeout(() => {
        apiFetch({ path: `${path}?_fields=id,title&per_page=20&search=${encodeURIComponent(q)}` }).then(
          (posts) => {
            if (live) setResults(posts);
          },
        );
      }, 250);
      return () => {
        live = false;
        clearTimeout(timer);
      };
    }, [query]);

    function pick(id, title) {
      setTitles({ ...titles, [id]: title });
      props.onChange(props.multiple ? props.ids.filter((x) => x !== id).concat([id]) : [id]);
      setQuery('');
      setResults([]);
    }

    function create() {
      const name = query.trim();
      setError('');
      // Published when the user may publish such records, else a draft (as the gateway's linked writes do).
      apiFetch({
        path,
        method: 'POST',
        data: { title: name, status: linked.canPublish ? 'publish' : 'draft' },
      }).then(
        (post) => pick(post.id, name),
        (err) => setError(err?.message || __('Could not create it.', DOMAIN)),
      );
    }

    const q = query.trim();
    const exact = results.some((p) => titleOf(p).toLowerCase() === q.toLowerCase());
    const chosen = props.ids.map((id) => {
      const title = titles[id] ?? '…';
      return el(
        'li',
        { key: id },
        el('span', null, title),
        ' ',
        el(
          c.Button,
          {
            variant: 'link',
            isDestructive: true,
            // translators: %s: a venue's or organizer's name.
            label: sprintf(__('Remove %s', DOMAIN), title),
            onClick: () => props.onChange(props.ids.filter((x) => x !== id)),
          },
          __('Remove', DOMAIN),
        ),
      );
    });
    const offers = results
      .filter((p) => !props.ids.includes(p.id))
      .map((p) =>
        el(
          c.Button,
          { key: p.id, variant: 'secondary', onClick: () => pick(p.id, titleOf(p)) },
          // translators: %s: a venue's or organizer's name.
          sprintf(__('Choose %s', DOMAIN), titleOf(p)),
        ),
      );
    if (q && !exact && linked.canCreate) {
      offers.push(
        el(
          c.Button,
          { key: 'new', variant: 'secondary', onClick: create },
          // translators: %s: the name typed, for a new venue or organizer.
          sprintf(__('Create “%s”', DOMAIN), q),
        ),
      );
    }
    return el(
      'div',
      { className: 'calendar-gateway-picker' },
      el(c.TextControl, {
        label: props.label,
        type: 'search',
        value: query,
        placeholder: props.placeholder,
        onChange: setQuery,
      }),
      chosen.length ? el('ul', { 'aria-label': props.chosenLabel }, chosen) : null,
      offers.length ? el('div', { className: 'calendar-gateway-picker__offers' }, offers) : null,
      error ? el(c.Notice, { status: 'error', isDismissible: false }, error) : null,
    );
  }

  window.calendarGatewayLinkedPicker = LinkedPicker;
})(window.wp, window.calendarGatewayPanels);
