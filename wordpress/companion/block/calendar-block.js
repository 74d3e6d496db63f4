// The block "Calendar (gateway)" in the block editor: its view and filters in the sidebar, a summary in the canvas.
// The front end is rendered by calendar-block.php (<calendar-gateway-view> on the configured gateway).
(({ blocks, blockEditor, components: c, element, i18n }, config) => {
  const { createElement: el, Fragment } = element;
  const { __, sprintf } = i18n;
  const { InspectorControls, useBlockProps } = blockEditor;

  const VIEWS = [
    { value: 'month', label: __('Month', 'calendar-gateway-companion') },
    { value: 'week', label: __('Week', 'calendar-gateway-companion') },
    { value: 'day', label: __('Day', 'calendar-gateway-companion') },
    { value: 'list', label: __('List (upcoming)', 'calendar-gateway-companion') },
  ];
  const FILTERS = [
    ['categories', __('Categories (slugs, comma-separated)', 'calendar-gateway-companion')],
    ['tags', __('Tags (slugs, comma-separated)', 'calendar-gateway-companion')],
    ['venue', __('Venue ids (comma-separated)', 'calendar-gateway-companion')],
    ['search', __('Search', 'calendar-gateway-companion')],
  ];

  function Edit({ attributes, setAttributes }) {
    const view = VIEWS.find((v) => v.value === attributes.view) ?? VIEWS[0];
    const filters = FILTERS.filter(([name]) => attributes[name]).map(
      ([name]) => `${name}: ${attributes[name]}`,
    );
    return el(
      Fragment,
      null,
      el(
        InspectorControls,
        null,
        el(
          c.PanelBody,
          { title: __('Calendar', 'calendar-gateway-companion'), initialOpen: true },
          el(c.SelectControl, {
            label: __('View', 'calendar-gateway-companion'),
            value: view.value,
            options: VIEWS,
            onChange: (value) => setAttributes({ view: value }),
          }),
          ...FILTERS.map(([name, label]) =>
            el(c.TextControl, {
              key: name,
              label,
              value: attributes[name] ?? '',
              onChange: (value) => setAttributes({ [name]: value }),
            }),
          ),
        ),
      ),
      el(
        'div',
        useBlockProps({ className: 'calendar-gateway-block-preview' }),
        el(
          c.Placeholder,
          {
            icon: 'calendar-alt',
            label: __('Calendar (gateway)', 'calendar-gateway-companion'),
            instructions: config?.gateway
              ? sprintf(__('%1$s view from %2$s', 'calendar-gateway-companion'), view.label, config.gateway)
              : __('Set the gateway URL in Settings → Calendar gateway.', 'calendar-gateway-companion'),
          },
          filters.length ? el('p', null, filters.join('; ')) : null,
        ),
      ),
    );
  }

  blocks.registerBlockType('calendar-gateway/calendar', {
    apiVersion: 2,
    title: __('Calendar (gateway)', 'calendar-gateway-companion'),
    icon: 'calendar-alt',
    category: 'widgets',
    edit: Edit,
    // Rendered on the server (calendar-block.php): the gateway's address is read when the page is.
    save: () => null,
  });
})(window.wp, window.calendarGatewayBlock);
