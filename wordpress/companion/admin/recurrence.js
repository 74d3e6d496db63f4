// A series' rule in the browser: the panel's choices → the canonical text (RECURRENCE.md) and the words of
// src/recurrence/text.ts. A port kept small on purpose; wordpress/companion/admin/recurrence.test.ts runs it beside
// src/recurrence/rule.ts and text.ts on the same rules and compares the bytes and the words.
((root) => {
  const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
  const DAY_NAMES = {
    MO: 'Monday',
    TU: 'Tuesday',
    WE: 'Wednesday',
    TH: 'Thursday',
    FR: 'Friday',
    SA: 'Saturday',
    SU: 'Sunday',
  };
  const MONTHS =
    'January February March April May June July August September October November December'.split(' ');
  const ORDINAL_WORDS = ['', 'first', 'second', 'third', 'fourth', 'fifth'];
  const pad = (n, w = 2) => String(n).padStart(w, '0');

  /** `-1FR` → [-1, 'FR']; `TU` → [undefined, 'TU']. */
  function splitByDay(token) {
    const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(token);
    return m ? [m[1] === undefined ? undefined : Number(m[1]), m[2]] : [undefined, 'MO'];
  }

  // --- Time zones, with the browser's Intl (no library in wp-admin): wall clocks as {year, month, day, hour, ...}.

  /** The wall clock in `zone` at the instant `ms`. */
  function wallAt(ms, zone) {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(new Date(ms));
    const get = (t) => Number(parts.find((p) => p.type === t).value);
    return {
      year: get('year'),
      month: get('month'),
      day: get('day'),
      hour: get('hour'),
      minute: get('minute'),
      second: get('second'),
    };
  }

  const asUtc = (w) => Date.UTC(w.year, w.month - 1, w.day, w.hour || 0, w.minute || 0, w.second || 0);

  /** The instant of a wall clock in `zone` (the earlier one when the clock repeats, as luxon picks). */
  function instantOf(w, zone) {
    const guess = asUtc(w);
    let t = guess - (asUtc(wallAt(guess, zone)) - guess);
    t = guess - (asUtc(wallAt(t, zone)) - t);
    return t;
  }

  /** `Y-m-d H:i:s` → a wall clock. */
  function clockOf(wall) {
    const [y, mo, d, h, mi, s] = (wall || '').split(/[-: T]/).map(Number);
    return { year: y, month: mo, day: d, hour: h || 0, minute: mi || 0, second: s || 0 };
  }

  /** ISO weekday, 1 = Monday. */
  const isoWeekday = (w) => ((new Date(asUtc(w)).getUTCDay() + 6) % 7) + 1;
  const compactDate = (w) => `${pad(w.year, 4)}${pad(w.month)}${pad(w.day)}`;
  const compactTime = (w) => `${pad(w.hour)}${pad(w.minute)}${pad(w.second)}`;
  const compactWall = (w) => `${compactDate(w)}T${compactTime(w)}`;
  /** `YYYYMMDD…` → a wall clock (its date; the time when there is one). */
  const wallOf = (v) =>
    clockOf(
      `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)} ${v.slice(9, 11) || 0}:${v.slice(11, 13) || 0}:${v.slice(13, 15) || 0}`,
    );

  // --- The rule: {freq, interval, byMonth, byMonthDay, byDay, bySetPos, count?, until?, wkst?, rdate, exdate}.

  /** The stored text (canonical) read back into a rule; no validation (the text came from a writer that did). */
  function parseText(text) {
    const rule = {
      freq: 'DAILY',
      interval: 1,
      byMonth: [],
      byMonthDay: [],
      byDay: [],
      bySetPos: [],
      rdate: [],
      exdate: [],
    };
    const list = (v) => v.split(',').filter(Boolean);
    for (const line of (text || '').split(/\r?\n/)) {
      const m = /^(RRULE|RDATE|EXDATE):(.*)$/.exec(line.trim());
      if (!m) continue;
      if (m[1] !== 'RRULE') {
        rule[m[1] === 'RDATE' ? 'rdate' : 'exdate'] = list(m[2]);
        continue;
      }
      for (const part of m[2].split(';')) {
        const [k, v] = part.split('=');
        if (k === 'FREQ') rule.freq = v;
        else if (k === 'INTERVAL') rule.interval = Number(v);
        else if (k === 'BYMONTH') rule.byMonth = list(v).map(Number);
        else if (k === 'BYMONTHDAY') rule.byMonthDay = list(v).map(Number);
        else if (k === 'BYDAY') rule.byDay = list(v);
        else if (k === 'BYSETPOS') rule.bySetPos = list(v).map(Number);
        else if (k === 'COUNT') rule.count = Number(v);
        else if (k === 'UNTIL') rule.until = v;
        else if (k === 'WKST') rule.wkst = v;
      }
    }
    return rule;
  }

  /** The canonical text (RECURRENCE.md): RRULE parts in their order, then RDATE and EXDATE when they have dates. */
  function canonicalText(r) {
    const parts = [`FREQ=${r.freq}`];
    if (r.interval !== 1) parts.push(`INTERVAL=${r.interval}`);
    if (r.byMonth.length) parts.push(`BYMONTH=${r.byMonth.join(',')}`);
    if (r.byMonthDay.length) parts.push(`BYMONTHDAY=${r.byMonthDay.join(',')}`);
    if (r.byDay.length) parts.push(`BYDAY=${r.byDay.join(',')}`);
    if (r.bySetPos.length) parts.push(`BYSETPOS=${r.bySetPos.join(',')}`);
    if (r.count !== undefined) parts.push(`COUNT=${r.count}`);
    if (r.until !== undefined) parts.push(`UNTIL=${r.until}`);
    if (r.wkst !== undefined && r.wkst !== 'MO') parts.push(`WKST=${r.wkst}`);
    const lines = [`RRULE:${parts.join(';')}`];
    if (r.rdate.length) lines.push(`RDATE:${r.rdate.join(',')}`);
    if (r.exdate.length) lines.push(`EXDATE:${r.exdate.join(',')}`);
    return lines.join('\n');
  }

  // --- The panel's choices ("model") ↔ the rule. start = {start: 'Y-m-d H:i:s' local, timezone, allDay}.
  // model = {freq: 'NONE'|'DAILY'|'WEEKLY'|'MONTHLY'|'YEARLY', interval, days: ['TU', …], monthly: 'date'|'nth'|'last',
  //          ends: 'never'|'on'|'after', until: 'YYYY-MM-DD', count, exdates: ['YYYY-MM-DD', …]}

  /** Which weekday of its month the start is: [n (1–5), n is the last such weekday, weekday token]. */
  function startWeekdayOfMonth(start) {
    const w = clockOf(start.start);
    const lastDay = new Date(Date.UTC(w.year, w.month, 0)).getUTCDate();
    return [Math.ceil(w.day / 7), w.day + 7 > lastDay, WEEKDAYS[isoWeekday(w) - 1]];
  }

  /** The UNTIL of "ends on this date": the date (all day), or 23:59:59 local that day in UTC (timed). */
  function untilOf(date, start) {
    const d = clockOf(`${date} 23:59:59`);
    if (start.allDay) return compactDate(d);
    const t = new Date(instantOf(d, start.timezone || 'UTC'));
    const u = {
      year: t.getUTCFullYear(),
      month: t.getUTCMonth() + 1,
      day: t.getUTCDate(),
      hour: t.getUTCHours(),
      minute: t.getUTCMinutes(),
      second: t.getUTCSeconds(),
    };
    return `${compactWall(u)}Z`;
  }

  /** A stored UNTIL as the local date (`YYYY-MM-DD`) it ends on. */
  function untilLocalDate(until, start) {
    let w = wallOf(until);
    if (!start.allDay) w = wallAt(asUtc(w), start.timezone || 'UTC');
    return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
  }

  /** The panel's choices as a rule (null for "none"). */
  function ruleOf(model, start) {
    if (!model || model.freq === 'NONE') return null;
    const rule = {
      freq: model.freq,
      interval: Math.max(1, Number(model.interval) || 1),
      byMonth: [],
      byMonthDay: [],
      byDay: [],
      bySetPos: [],
      rdate: [],
      exdate: [],
    };
    if (model.freq === 'WEEKLY') rule.byDay = WEEKDAYS.filter((d) => (model.days || []).includes(d));
    if (model.freq === 'MONTHLY' && model.monthly !== 'date') {
      const [n, , day] = startWeekdayOfMonth(start);
      rule.byDay = [`${model.monthly === 'last' ? -1 : n}${day}`];
    }
    if (model.ends === 'after') rule.count = Math.max(1, Number(model.count) || 1);
    if (model.ends === 'on' && model.until) rule.until = untilOf(model.until, start);
    const time = compactTime(clockOf(start.start));
    rule.exdate = [
      ...new Set(
        (model.exdates || []).map((d) =>
          start.allDay ? d.replace(/-/g, '') : `${d.replace(/-/g, '')}T${time}`,
        ),
      ),
    ].sort();
    return rule;
  }

  /** A stored rule as the panel's choices, or null when the panel cannot show it (set through the API). */
  function modelOf(rule, start) {
    const plain =
      !rule.byMonth.length &&
      !rule.byMonthDay.length &&
      !rule.bySetPos.length &&
      !rule.rdate.length &&
      !rule.wkst;
    const time = compactTime(clockOf(start.start));
    const exdates = rule.exdate.map((v) => `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}`);
    if (!plain || rule.exdate.some((v) => !start.allDay && v.slice(9) !== time)) return null;
    const model = {
      freq: rule.freq,
      interval: rule.interval,
      days: [],
      monthly: 'date',
      ends: 'never',
      until: '',
      count: 1,
      exdates,
    };
    if (rule.count !== undefined) Object.assign(model, { ends: 'after', count: rule.count });
    if (rule.until !== undefined)
      Object.assign(model, { ends: 'on', until: untilLocalDate(rule.until, start) });
    if (rule.freq === 'WEEKLY') {
      if (rule.byDay.some((t) => splitByDay(t)[0] !== undefined)) return null;
      model.days = rule.byDay.length ? rule.byDay : [startWeekdayOfMonth(start)[2]];
    } else if (rule.freq === 'MONTHLY' && rule.byDay.length) {
      const [n, last, day] = startWeekdayOfMonth(start);
      const [k, d] = splitByDay(rule.byDay[0]);
      if (rule.byDay.length !== 1 || d !== day || !(k === n || (k === -1 && last))) return null;
      model.monthly = k === -1 ? 'last' : 'nth';
    } else if (rule.byDay.length) return null;
    // Only when writing it back gives the same bytes is the rule the panel's to edit.
    return canonicalText(ruleOf(model, start)) === canonicalText(rule) ? model : null;
  }

  // --- The words: a port of src/recurrence/text.ts (same phrasing, compared by the test).

  function joinAnd(items) {
    if (items.length < 2) return items.join('');
    return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
  }
  function numeric(n) {
    const teen = n % 100 >= 11 && n % 100 <= 13;
    return `${n}${teen ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] || 'th'}`;
  }
  function nth(n) {
    if (n === -1) return 'last';
    if (n < 0) return `${nth(-n)} to last`;
    return ORDINAL_WORDS[n] || numeric(n);
  }
  const monthDay = (n) => (n < 0 ? `${nth(n)} day` : numeric(n));
  const dateWords = (w) => `${w.day} ${MONTHS[w.month - 1]} ${w.year}`;
  function weekdays(days) {
    const set = [...new Set(days)].sort((a, b) => WEEKDAYS.indexOf(a) - WEEKDAYS.indexOf(b));
    if (set.length === 7) return 'day';
    if (set.join() === 'MO,TU,WE,TH,FR') return 'weekday';
    if (set.join() === 'SA,SU') return 'weekend day';
    return joinAnd(set.map((d) => DAY_NAMES[d]));
  }
  function byDayWords(rule) {
    const tokens = rule.byDay.map(splitByDay);
    if (tokens.every(([n]) => n === undefined)) {
      const days = weekdays(tokens.map(([, d]) => d));
      if (rule.bySetPos.length) return `the ${joinAnd(rule.bySetPos.map(nth))} ${days}`;
      return days;
    }
    return `the ${joinAnd(tokens.map(([n, d]) => (n === undefined ? DAY_NAMES[d] : `${nth(n)} ${DAY_NAMES[d]}`)))}`;
  }
  const monthNames = (ms) => joinAnd(ms.map((m) => MONTHS[m - 1]));

  function cadence(rule, start) {
    const first = clockOf(start.start);
    const startDay = WEEKDAYS[isoWeekday(first) - 1];
    const n = rule.interval;
    const inMonths = rule.byMonth.length ? ` in ${monthNames(rule.byMonth)}` : '';
    switch (rule.freq) {
      case 'DAILY': {
        if (rule.byDay.length && n === 1) return `Every ${byDayWords(rule)}${inMonths}`;
        const base = n === 1 ? 'Every day' : `Every ${n} days`;
        return `${base}${rule.byDay.length ? ` on ${byDayWords(rule)}` : ''}${inMonths}`;
      }
      case 'WEEKLY': {
        const days = rule.byDay.length ? byDayWords(rule) : DAY_NAMES[startDay];
        return n === 1 ? `Every ${days}${inMonths}` : `Every ${n} weeks on ${days}${inMonths}`;
      }
      case 'MONTHLY': {
        const head = n === 1 ? 'Monthly' : `Every ${n} months`;
        const on = rule.byDay.length
          ? byDayWords(rule)
          : `the ${joinAnd((rule.byMonthDay.length ? rule.byMonthDay : [first.day]).map(monthDay))}`;
        return `${head} on ${on}${inMonths}`;
      }
      default: {
        const head = n === 1 ? 'Yearly' : `Every ${n} years`;
        const months = rule.byMonth.length ? rule.byMonth : [first.month];
        if (rule.byDay.length) return `${head} on ${byDayWords(rule)} of ${monthNames(months)}`;
        const days = rule.byMonthDay.length ? rule.byMonthDay : [first.day];
        if (days.length === 1 && days[0] > 0 && months.length === 1)
          return `${head} on ${days[0]} ${MONTHS[months[0] - 1]}`;
        return `${head} on the ${joinAnd(days.map(monthDay))} of ${monthNames(months)}`;
      }
    }
  }

  const dateListWords = (values) =>
    values.length > 3 ? `${values.length} dates` : joinAnd(values.map((v) => dateWords(wallOf(v))));

  /** The rule in plain English, as describeRule in src/recurrence/text.ts says it. */
  function describe(rule, start) {
    let text = cadence(rule, start);
    if (rule.count !== undefined) text += rule.count === 1 ? ', once' : `, ${rule.count} times`;
    if (rule.until !== undefined) text += ` until ${dateWords(clockOf(untilLocalDate(rule.until, start)))}`;
    if (rule.rdate.length) text += `, also on ${dateListWords(rule.rdate)}`;
    if (rule.exdate.length) text += `, except ${dateListWords(rule.exdate)}`;
    return text;
  }

  /**
   * Excluded dates (`YYYY-MM-DD`) moved with a series' start, from one start date to another (Google Calendar's way, and
   * the gateway's on an update of the whole series): they keep naming the same occurrences, a day's shift later.
   */
  function shiftExdates(exdates, fromDate, toDate) {
    const day = (d) => Date.UTC(+d.slice(0, 4), +d.slice(5, 7) - 1, +d.slice(8, 10));
    if (!/^\d{4}-\d{2}-\d{2}$/.test(fromDate || '') || !/^\d{4}-\d{2}-\d{2}$/.test(toDate || ''))
      return exdates;
    const shift = day(toDate) - day(fromDate);
    if (!shift) return exdates;
    return [...new Set(exdates.map((d) => new Date(day(d) + shift).toISOString().slice(0, 10)))].sort();
  }

  root.calendarGatewayRecurrence = {
    shiftExdates,
    WEEKDAYS,
    DAY_NAMES,
    parseText,
    canonicalText,
    ruleOf,
    modelOf,
    describe,
    startWeekdayOfMonth,
    isoWeekday: (wall) => isoWeekday(clockOf(wall)),
  };
})(typeof window === 'undefined' ? globalThis : window);
