// Event, Venue and Organizer details in the block editor's document sidebar (sites without TEC), on WordPress's own
// wp.* globals. panels.php passes the mapping (window.calendarGatewayPanels); meta-fields.js writes each value in the
// mapping's format, and panels.php derives the UTC copies, duration and abbreviation on save.
(({ element, components: c, data, i18n, apiFetch, plugins, editPost }, config) => {
  if (!config) return;
  const { createElement: el, useEffect } = element;
  const { __ } = i18n;
  const { useField } = window.calendarGatewayFields;
  const LinkedPicker = window.calendarGatewayLinkedPicker;
  const RepeatSection = window.calendarGatewayRepeat;
  const { PluginDocumentSettingPanel } = editPost;
  const DOMAIN = 'calendar-gateway-companion';
  const LOCK = 'calendar-gateway-event-dates';

  /** `Y-m-d H:i:s` → the input's value: `YYYY-MM-DDTHH:MM`, or `YYYY-MM-DD` all day. */
  const toInput = (wall, allDay) =>
    !wall ? '' : allDay ? wall.slice(0, 10) : wall.slice(0, 16).replace(' ', 'T');

  /** The input's value → `Y-m-d H:i:s` ('' while cleared or incomplete); all day runs 00:00:00–23:59:59 as in TEC. */
  function fromInput(value, allDay, endOfDay) {
    if (allDay)
      return /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value} ${endOfDay ? '23:59:59' : '00:00:00'}` : '';
    return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) ? `${value.slice(0, 16).replace('T', ' ')}:00` : '';
  }

  const DateField = ({ label, value, allDay, endOfDay, onChange }) =>
    el(c.TextControl, {
      label,
      type: allDay ? 'date' : 'datetime-local',
      value: toInput(value, allDay),
      onChange: (v) => onChange(fromInput(v, allDay, endOfDay)),
    });

  // Controls of one field each; null when the mapping does not store the field (custom.json has no sticky).
  function Toggle({ name, label }) {
    const f = useField(name);
    return f && el(c.ToggleControl, { label, checked: !!f[0], onChange: f[1] });
  }

  function Text({ name, label, type }) {
    const f = useField(name);
    return f && el(c.TextControl, { label, type: type || 'text', value: f[0] || '', onChange: f[1] });
  }

  function EventPanel() {
    const start = useField('start_date');
    const end = useField('end_date');
    const allDay = useField('all_day');
    const zone = useField('timezone');
    const venue = useField('venue');
    const organizer = useField('organizer');
    const editor = data.useDispatch('core/editor');
    const isAllDay = !!allDay?.[0];
    const backwards = !!(start?.[0] && end?.[0] && end[0] < start[0]);

    // An end before the start is refused at once: nothing saves (nor autosaves) until it is fixed.
    useEffect(() => {
      if (backwards) {
        editor.lockPostSaving(LOCK);
        editor.lockPostAutosaving(LOCK);
      } else {
        editor.unlockPostSaving(LOCK);
        editor.unlockPostAutosaving(LOCK);
      }
    }, [backwards]);

    function setAllDay(on) {
      allDay[1](on);
      // The days stay, the times go.
      if (on && start?.[0]) start[1](`${start[0].slice(0, 10)} 00:00:00`);
      if (on && end?.[0]) end[1](`${end[0].slice(0, 10)} 23:59:59`);
    }

    return el(
      PluginDocumentSettingPanel,
      {
        name: 'calendar-gateway-event',
        title: __('Event details', DOMAIN),
        className: 'calendar-gateway-event',
      },
      start &&
        el(DateField, { label: __('Start', DOMAIN), value: start[0], allDay: isAllDay, onChange: start[1] }),
      end &&
        el(DateField, {
          label: __('End', DOMAIN),
          value: end[0],
          allDay: isAllDay,
          endOfDay: true,
          onChange: end[1],
        }),
      backwards &&
        el(c.Notice, { status: 'error', isDismissible: false }, __('The end is before the start.', DOMAIN)),
      allDay && el(c.ToggleControl, { label: __('All day', DOMAIN), checked: isAllDay, onChange: setAllDay }),
      zone &&
        el(c.SelectControl, {
          label: __('Time zone', DOMAIN),
          value: zone[0] || config.siteTimezone,
          options: config.timezones.map((z) => ({ value: z, label: z })),
          onChange: zone[1],
        }),
      start?.[0] && el(RepeatSection, { start: start[0], zone: zone?.[0], allDay: isAllDay }),
      venue &&
        el(LinkedPicker, {
          kind: 'venue',
          label: __('Venue', DOMAIN),
          chosenLabel: __('Chosen venue', DOMAIN),
          placeholder: __('Search, or type a new name', DOMAIN),
          ids: venue[0] ? [venue[0]] : [],
          onChange: (ids) => venue[1](ids[0] || null),
        }),
      organizer &&
        el(LinkedPicker, {
          kind: 'organizer',
          label: __('Organizers', DOMAIN),
          chosenLabel: __('Chosen organizers', DOMAIN),
          placeholder: __('Search, or type a new name', DOMAIN),
          multiple: true,
          ids: organizer[0] || [],
          onChange: organizer[1],
        }),
      el(Text, { name: 'cost', label: __('Cost', DOMAIN) }),
      el(Text, { name: 'currency_symbol', label: __('Currency symbol', DOMAIN) }),
      el(Text, { name: 'website', label: __('Website', DOMAIN), type: 'url' }),
      el(Toggle, { name: 'show_map', label: __('Show map', DOMAIN) }),
      el(Toggle, { name: 'show_map_link', label: __('Show map link', DOMAIN) }),
      el(Toggle, { name: 'featured', label: __('Featured', DOMAIN) }),
      el(Toggle, { name: 'sticky', label: __('Sticky', DOMAIN) }),
      el(Toggle, { name: 'hide_from_listings', label: __('Hide from listings', DOMAIN) }),
    );
  }

  const US = ['', 'US', 'USA', 'United States', 'United States of America'];
  const GEO_LOCK = 'calendar-gateway-venue-coordinates';
  /** A coordinate as the API takes it (src/geo/args.ts): decimal text within its range. */
  const coordinate = (text, max) => /^-?\d+(\.\d+)?$/.test(text.trim()) && Math.abs(Number(text)) <= max;
  /** "lat, lng" as map sites copy it (`40.7308, -73.9973`, or with a space or semicolon between). */
  const PAIR = /^\s*(-?\d+(?:\.\d+)?)\s*[,;\s]\s*(-?\d+(?:\.\d+)?)\s*$/;

  /**
   * Latitude and longitude, validated as the API validates them (in range, both or neither): a value that is not
   * stays in the field with its reason and is not saved (saving is locked until both are right or both empty).
   * A "lat, lng" pair typed or pasted into either field fills both. No geocoding service is called.
   */
  function Coordinates() {
    const lat = useField('geo_lat');
    const lng = useField('geo_lng');
    const [text, setText] = element.useState(null);
    const { lockPostSaving, unlockPostSaving } = data.useDispatch('core/editor');
    const shown = text || { lat: lat?.[0] || '', lng: lng?.[0] || '' };
    const bad = {
      lat: shown.lat !== '' && !coordinate(shown.lat, 90),
      lng: shown.lng !== '' && !coordinate(shown.lng, 180),
    };
    const half = (shown.lat === '') !== (shown.lng === '');
    const blocked = bad.lat || bad.lng || half;
    useEffect(() => {
      if (blocked) lockPostSaving(GEO_LOCK);
      else unlockPostSaving(GEO_LOCK);
      return () => unlockPostSaving(GEO_LOCK);
    }, [blocked]);
    if (!lat || !lng) return null;
    function change(which, v) {
      const pair = PAIR.exec(v);
      const next = pair ? { lat: pair[1], lng: pair[2] } : { ...shown, [which]: v };
      setText(next);
      const okLat = next.lat === '' || coordinate(next.lat, 90);
      const okLng = next.lng === '' || coordinate(next.lng, 180);
      if (okLat && okLng && (next.lat === '') === (next.lng === '')) {
        lat[1](next.lat.trim());
        lng[1](next.lng.trim());
      }
    }
    const help = (which) =>
      bad[which]
        ? which === 'lat'
          ? __('A latitude is a number from -90 to 90.', DOMAIN)
          : __('A longitude is a number from -180 to 180.', DOMAIN)
        : half && shown[which] === ''
          ? __('Enter both latitude and longitude, or neither.', DOMAIN)
          : which === 'lat'
            ? __('Paste "lat, lng" from a map to fill both.', DOMAIN)
            : undefined;
    return el(
      element.Fragment,
      null,
      el(c.TextControl, {
        label: __('Latitude', DOMAIN),
        value: shown.lat,
        help: help('lat'),
        className: bad.lat ? 'calendar-gateway-invalid' : undefined,
        onChange: (v) => change('lat', v),
      }),
      el(c.TextControl, {
        label: __('Longitude', DOMAIN),
        value: shown.lng,
        help: help('lng'),
        className: bad.lng ? 'calendar-gateway-invalid' : undefined,
        onChange: (v) => change('lng', v),
      }),
    );
  }

  function VenuePanel() {
    const country = useField('country');
    const state = useField('state');
    const province = useField('province');
    const both = useField('stateprovince');
    const shown = both?.[0] || state?.[0] || province?.[0] || '';

    // TEC keeps the state for a US (or no) country, the province elsewhere, and either in `stateprovince`.
    function setRegion(v) {
      const us = US.includes((country?.[0] || '').trim());
      const target = us || !province ? state : province;
      target?.[1](v);
      both?.[1](v);
    }

    return el(
      PluginDocumentSettingPanel,
      {
        name: 'calendar-gateway-venue',
        title: __('Venue details', DOMAIN),
        className: 'calendar-gateway-venue',
      },
      el(Text, { name: 'address', label: __('Address', DOMAIN) }),
      el(Text, { name: 'city', label: __('City', DOMAIN) }),
      (state || province || both) &&
        el(c.TextControl, { label: __('State or province', DOMAIN), value: shown, onChange: setRegion }),
      el(Text, { name: 'zip', label: __('Postal code', DOMAIN) }),
      el(Text, { name: 'country', label: __('Country', DOMAIN) }),
      el(Coordinates),
      el(Text, { name: 'phone', label: __('Phone', DOMAIN), type: 'tel' }),
      el(Text, { name: 'website', label: __('Website', DOMAIN), type: 'url' }),
      el(Toggle, { name: 'show_map', label: __('Show map', DOMAIN) }),
      el(Toggle, { name: 'show_map_link', label: __('Show map link', DOMAIN) }),
    );
  }

  const OrganizerPanel = () =>
    el(
      PluginDocumentSettingPanel,
      {
        name: 'calendar-gateway-organizer',
        title: __('Organizer details', DOMAIN),
        className: 'calendar-gateway-organizer',
      },
      el(Text, { name: 'phone', label: __('Phone', DOMAIN), type: 'tel' }),
      el(Text, { name: 'email', label: __('Email', DOMAIN), type: 'email' }),
      el(Text, { name: 'website', label: __('Website', DOMAIN), type: 'url' }),
    );

  // The editor sends the whole meta object on save, so a key without a row would get one holding what REST shows
  // for it ('' or the registered default): rows the gateway's own writes never make. Only changed keys are sent.
  apiFetch.use((options, next) => {
    const post = data.select('core/editor').getCurrentPost();
    const method = (options.method || 'GET').toUpperCase();
    const self = `/wp/v2/${config.restBase}/${post?.id}`;
    const path = typeof options.path === 'string' ? options.path : '';
    if (!options.data?.meta || !post?.meta || !['POST', 'PUT'].includes(method)) return next(options);
    if (path !== self && !path.startsWith(`${self}?`)) return next(options);
    const meta = Object.fromEntries(
      Object.entries(options.data.meta).filter(
        ([key, v]) => JSON.stringify(v) !== JSON.stringify(post.meta[key]),
      ),
    );
    return next({ ...options, data: { ...options.data, meta } });
  });

  const panels = { event: EventPanel, venue: VenuePanel, organizer: OrganizerPanel };
  plugins.registerPlugin(`calendar-gateway-${config.kind}`, {
    render: () => el(panels[config.kind]),
    icon: null,
  });
})(window.wp, window.calendarGatewayPanels);
