// The Repeat section of the Event details panel: the editor's choices → the mapping's `recurrence` meta, as the
// canonical text the gateway writes for the same rule (recurrence.js); the rule in words beneath.
(({ element, components: c, data, i18n }, config) => {
  if (!config) return;
  const { createElement: el, useEffect, useRef, useState } = element;
  const { __, sprintf } = i18n;
  const R = window.calendarGatewayRecurrence;
  const DOMAIN = 'calendar-gateway-companion';
  const LOCK = 'calendar-gateway-repeat';
  const SHORT = { MO: 'Mon', TU: 'Tue', WE: 'Wed', TH: 'Thu', FR: 'Fri', SA: 'Sat', SU: 'Sun' };
  const UNITS = {
    DAILY: __('days', DOMAIN),
    WEEKLY: __('weeks', DOMAIN),
    MONTHLY: __('months', DOMAIN),
    YEARLY: __('years', DOMAIN),
  };
  const NTH = [
    '',
    __('first', DOMAIN),
    __('second', DOMAIN),
    __('third', DOMAIN),
    __('fourth', DOMAIN),
    __('fifth', DOMAIN),
  ];
  const NONE = {
    freq: 'NONE',
    interval: 1,
    days: [],
    monthly: 'date',
    ends: 'never',
    until: '',
    count: 10,
    exdates: [],
  };

  /** [stored text, set] of the mapping's `recurrence` key; null when the mapping has none. */
  function useRecurrence() {
    const key = config.fields.recurrence?.meta;
    const stored = data.useSelect(
      (s) => key && s('core/editor').getEditedPostAttribute('meta')?.[key],
      [key],
    );
    const saved = data.useSelect((s) => key && s('core/editor').getCurrentPost()?.meta?.[key], [key]);
    const { editPost } = data.useDispatch('core/editor');
    if (!key) return null;
    const text = Array.isArray(stored) ? stored[0] || '' : stored || '';
    // A saved series keeps its rule (its overrides hang on it): the gateway refuses to take it off, and so does the
    // panel. Before the first save, "does not repeat" leaves no row at all (not an empty one).
    return [text, (v) => editPost({ meta: { [key]: v || '' } }), !!saved];
  }

  function RepeatSection({ start, zone, allDay }) {
    const rec = useRecurrence();
    const series = { start: start || '', timezone: zone || config.siteTimezone || 'UTC', allDay: !!allDay };
    const text = rec?.[0] || '';
    // The choices are read from the stored text once; a rule the panel cannot show (set through the API) stays.
    const [model, setModel] = useState(() => (text ? R.modelOf(R.parseText(text), series) : { ...NONE }));
    const custom = model === null;
    const rule = custom ? R.parseText(text) : R.ruleOf(model, series);
    const untilBad =
      !custom && model.ends === 'on' && (!model.until || model.until < series.start.slice(0, 10));
    const [exclude, setExclude] = useState('');
    // Moving the start moves the excluded dates with it (as Google Calendar does, and the gateway on an update of the
    // whole series): they keep naming the same occurrences. A time of day follows already (they are stored at it).
    const startDay = series.start.slice(0, 10);
    const savedDay = useRef(startDay);
    const lastDay = useRef(startDay);
    useEffect(() => {
      const from = lastDay.current;
      lastDay.current = startDay;
      if (!custom && model.exdates?.length && from && startDay && from !== startDay)
        setModel({ ...model, exdates: R.shiftExdates(model.exdates, from, startDay) });
    }, [startDay]);
    // Single-date changes (overrides, made through the API) name their original dates: the panel cannot move them.
    const moved = !!rec?.[2] && !!savedDay.current && startDay !== savedDay.current && rule;
    const { lockPostSaving, unlockPostSaving } = data.useDispatch('core/editor');

    // The stored text follows the choices, and the start: EXDATE times and a timed UNTIL depend on it.
    const next = custom || !series.start || untilBad ? text : rule ? R.canonicalText(rule) : '';
    useEffect(() => {
      if (rec && next !== text) rec[1](next);
    }, [next]);
    useEffect(() => {
      if (untilBad) lockPostSaving(LOCK);
      else unlockPostSaving(LOCK);
    }, [untilBad]);
    if (!rec) return null;

    const set = (patch) => setModel({ ...(model || NONE), ...patch });
    const [n, last, day] = series.start ? R.startWeekdayOfMonth(series) : [1, false, 'MO'];
    const dayName = R.DAY_NAMES[day];
    const freqOptions = [
      { value: 'NONE', label: __('Does not repeat', DOMAIN), disabled: rec?.[2] },
      { value: 'DAILY', label: __('Daily', DOMAIN) },
      { value: 'WEEKLY', label: __('Weekly', DOMAIN) },
      { value: 'MONTHLY', label: __('Monthly', DOMAIN) },
      { value: 'YEARLY', label: __('Yearly', DOMAIN) },
    ];
    if (custom)
      freqOptions.unshift({ value: 'CUSTOM', label: __('Custom rule (set through the API)', DOMAIN) });
    const repeats = !custom && model.freq !== 'NONE';

    return el(
      'div',
      { className: 'calendar-gateway-repeat' },
      el(c.SelectControl, {
        label: __('Repeat', DOMAIN),
        value: custom ? 'CUSTOM' : model.freq,
        options: freqOptions,
        onChange: (freq) =>
          freq !== 'CUSTOM' &&
          setModel({
            ...(model || NONE),
            freq,
            days: model?.days?.length ? model.days : [R.WEEKDAYS[R.isoWeekday(series.start) - 1]],
          }),
      }),
      rec[2] &&
        el(
          'p',
          { className: 'calendar-gateway-repeat-saved' },
          __('A saved series keeps repeating: end it on a date, or move it to the trash.', DOMAIN),
        ),
      repeats &&
        el(c.TextControl, {
          label: sprintf(__('Every how many %s', DOMAIN), UNITS[model.freq]),
          type: 'number',
          min: 1,
          value: String(model.interval),
          onChange: (v) => set({ interval: Math.max(1, Number.parseInt(v, 10) || 1) }),
        }),
      repeats &&
        model.freq === 'WEEKLY' &&
        el(
          'fieldset',
          { className: 'calendar-gateway-repeat-days' },
          el('legend', null, __('On', DOMAIN)),
          R.WEEKDAYS.map((d) =>
            el(c.CheckboxControl, {
              key: d,
              label: SHORT[d],
              checked: model.days.includes(d),
              onChange: (on) => set({ days: on ? [...model.days, d] : model.days.filter((x) => x !== d) }),
            }),
          ),
        ),
      repeats &&
        model.freq === 'MONTHLY' &&
        el(c.SelectControl, {
          label: __('On', DOMAIN),
          value: model.monthly,
          options: [
            { value: 'date', label: __('The same date', DOMAIN) },
            n <= 4 && { value: 'nth', label: sprintf(__('The %1$s %2$s', DOMAIN), NTH[n], dayName) },
            last && { value: 'last', label: sprintf(__('The last %s', DOMAIN), dayName) },
          ].filter(Boolean),
          onChange: (monthly) => set({ monthly }),
        }),
      repeats &&
        el(c.SelectControl, {
          label: __('Ends', DOMAIN),
          value: model.ends,
          options: [
            { value: 'never', label: __('Never', DOMAIN) },
            { value: 'on', label: __('On a date', DOMAIN) },
            { value: 'after', label: __('After a number of times', DOMAIN) },
          ],
          onChange: (ends) => set({ ends }),
        }),
      repeats &&
        model.ends === 'on' &&
        el(c.TextControl, {
          label: __('End date', DOMAIN),
          type: 'date',
          value: model.until,
          onChange: (until) => set({ until }),
        }),
      untilBad &&
        el(
          c.Notice,
          { status: 'error', isDismissible: false },
          __('The series must end on or after its start.', DOMAIN),
        ),
      repeats &&
        model.ends === 'after' &&
        el(c.TextControl, {
          label: __('Times', DOMAIN),
          type: 'number',
          min: 1,
          value: String(model.count),
          onChange: (v) => set({ count: Math.max(1, Number.parseInt(v, 10) || 1) }),
        }),
      repeats &&
        el(
          'div',
          { className: 'calendar-gateway-repeat-exdates' },
          el(c.TextControl, {
            label: __('Excluded date', DOMAIN),
            type: 'date',
            value: exclude,
            onChange: setExclude,
          }),
          el(
            c.Button,
            {
              variant: 'secondary',
              disabled: !/^\d{4}-\d{2}-\d{2}$/.test(exclude),
              onClick: () => {
                set({ exdates: [...new Set([...model.exdates, exclude])].sort() });
                setExclude('');
              },
            },
            __('Exclude', DOMAIN),
          ),
          el(
            'ul',
            null,
            model.exdates.map((d) =>
              el(
                'li',
                { key: d },
                d,
                ' ',
                el(
                  c.Button,
                  {
                    variant: 'link',
                    isDestructive: true,
                    label: sprintf(__('Include %s again', DOMAIN), d),
                    onClick: () => set({ exdates: model.exdates.filter((x) => x !== d) }),
                  },
                  __('Remove', DOMAIN),
                ),
              ),
            ),
          ),
        ),
      rule &&
        series.start &&
        el('p', { className: 'calendar-gateway-repeat-words' }, R.describe(rule, series)),
      moved &&
        el(
          'p',
          { className: 'calendar-gateway-repeat-moved' },
          custom
            ? __(
                'The series starts on another day now: its excluded dates and its single-date changes keep their dates. To move them with it, update the series through the API (scope all).',
                DOMAIN,
              )
            : __(
                'The excluded dates move with the start. Single-date changes keep their dates: to move them too, update the series through the API (scope all).',
                DOMAIN,
              ),
        ),
    );
  }

  window.calendarGatewayRepeat = RepeatSection;
})(window.wp, window.calendarGatewayPanels);
