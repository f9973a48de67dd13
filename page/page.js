'use strict';
// memsym's page: every byte figure below is counted from the model's
// polynomials in exact rational arithmetic on BigInts. Floating point only
// places things on the drawings and rounds the figures marked ≈.
(function () {
  // An error anywhere below, even before the page is drawn, is said at the
  // top of the page rather than leaving it blank.
  window.addEventListener('error', function (e) {
    const p = document.createElement('p');
    p.className = 'err';
    p.textContent = 'error: ' + e.message;
    (document.getElementById('page') || document.body).prepend(p);
  });
  const data = JSON.parse(document.getElementById('memsym-data').textContent);
  const NNBSP = '\u202f';
  const SVGNS = 'http://www.w3.org/2000/svg';

  // ---- Exact rationals: {n, d} with d > 0 in lowest terms. ----
  function gcd(a, b) {
    if (a < 0n) a = -a;
    if (b < 0n) b = -b;
    while (b) { const t = a % b; a = b; b = t; }
    return a;
  }
  function Q(n, d) {
    if (d === undefined) d = 1n;
    if (d < 0n) { n = -n; d = -d; }
    const g = gcd(n, d);
    return g > 1n ? { n: n / g, d: d / g } : { n: n, d: d };
  }
  const ZERO = Q(0n);
  function add(a, b) { return a.d === b.d ? Q(a.n + b.n, a.d) : Q(a.n * b.d + b.n * a.d, a.d * b.d); }
  function sub(a, b) { return add(a, Q(-b.n, b.d)); }
  function mul(a, b) { return Q(a.n * b.n, a.d * b.d); }
  function mulInt(a, k) { return Q(a.n * k, a.d); }
  function cmp(a, b) { const l = a.n * b.d, r = b.n * a.d; return l < r ? -1 : l > r ? 1 : 0; }
  function floorDiv(n, d) { const q = n / d; return (n % d !== 0n && n < 0n) ? q - 1n : q; } // d > 0
  function ceilDiv(n, d) { return -floorDiv(-n, d); }
  function lcm(a, b) { return a / gcd(a, b) * b; }
  function toNumber(q) { return Number(q.n) / Number(q.d); }
  // parseDecimal reads "12", "12.25" or ".5" exactly; null otherwise.
  function parseDecimal(s) {
    const m = /^\s*(\d*)(?:\.(\d*))?\s*$/.exec(s);
    if (!m || (m[1] === '' && (m[2] === undefined || m[2] === ''))) return null;
    const frac = m[2] || '';
    return Q(BigInt((m[1] || '0') + frac), 10n ** BigInt(frac.length));
  }

  // ---- Polynomials: "den|c,e1,…,en|…" (see page/data.go). ----
  function parsePoly(s) {
    const parts = s.split('|');
    return {
      den: BigInt(parts[0]),
      terms: parts.slice(1).map(function (t) {
        const xs = t.split(',');
        return { c: BigInt(xs[0]), e: xs.slice(1).map(Number) };
      }),
    };
  }
  const polys = data.polys.map(parsePoly);
  function evalPoly(p, x) {
    let s = 0n;
    for (const t of p.terms) {
      let v = t.c;
      for (let j = 0; j < t.e.length; j++) for (let k = 0; k < t.e[j]; k++) v *= x[j];
      s += v;
    }
    return Q(s, p.den);
  }
  // restrict returns p as a polynomial in variable j alone, the others at
  // x: its rational coefficients by power.
  function restrict(p, x, j) {
    const cs = [];
    for (const t of p.terms) {
      let v = t.c;
      for (let i = 0; i < t.e.length; i++) if (i !== j) for (let k = 0; k < t.e[i]; k++) v *= x[i];
      const e = t.e[j];
      while (cs.length <= e) cs.push(ZERO);
      cs[e] = add(cs[e], Q(v, p.den));
    }
    return cs;
  }
  const SUP = '⁰¹²³⁴⁵⁶⁷⁸⁹';
  function ratText(q) { return q.d === 1n ? q.n.toString() : q.n.toString() + '/' + q.d.toString(); }
  // formatPoly writes p as memsym prints polynomials: "27648 · B · T + 8 · T²".
  function formatPoly(p) {
    if (!p.terms.length) return '0';
    let out = '';
    p.terms.forEach(function (t, i) {
      let c = Q(t.c, p.den);
      const neg = c.n < 0n;
      if (neg) c = Q(-c.n, c.d);
      if (i === 0 && neg) out += '−';
      else if (i > 0) out += neg ? ' − ' : ' + ';
      let first = true;
      if (!(c.n === 1n && c.d === 1n) || t.e.every(function (e) { return e === 0; })) { out += ratText(c); first = false; }
      t.e.forEach(function (e, j) {
        if (!e) return;
        if (!first) out += ' · ';
        out += data.vars[j];
        if (e > 1) out += String(e).split('').map(function (d) { return SUP[+d]; }).join('');
        first = false;
      });
    });
    return out;
  }

  // ---- Numbers for people. ----
  function group(n) {
    const neg = n < 0n;
    const s = (neg ? -n : n).toString();
    const head = s.length % 3 || 3;
    let out = s.slice(0, head);
    for (let i = head; i < s.length; i += 3) out += NNBSP + s.slice(i, i + 3);
    return (neg ? '-' : '') + out;
  }
  // exact writes q as memsym's commands do (doc.Group): an integer in
  // groups of three digits, "86 532 096"; a fraction as its exact decimal
  // where it has one, the integer part grouped, "130 405 944 524.8", and
  // else as numerator/denominator, "7/3", never grouped, as "4 147/3"
  // would read as 4 and 147/3.
  function exact(q) {
    if (q.d === 1n) return group(q.n);
    let t = q.d, k = 0n, twos = 0n, fives = 0n;
    while (t % 2n === 0n) { t /= 2n; twos++; }
    while (t % 5n === 0n) { t /= 5n; fives++; }
    if (t !== 1n) return q.n.toString() + '/' + q.d.toString();
    k = twos > fives ? twos : fives;
    const neg = q.n < 0n;
    const scaled = (neg ? -q.n : q.n) * 10n ** k / q.d; // exact: q.d divides 10^k
    const unit = 10n ** k;
    return (neg ? '-' : '') + group(scaled / unit) + '.' + (scaled % unit).toString().padStart(Number(k), '0');
  }
  const UNITS = [['KiB', 1n << 10n], ['MiB', 1n << 20n], ['GiB', 1n << 30n], ['TiB', 1n << 40n], ['PiB', 1n << 50n], ['EiB', 1n << 60n]];
  // approx writes q bytes as memsym's text does (doc.Units.Approx): in the
  // largest binary unit of which it holds at least one, to three
  // significant digits rounded half to even, a figure that three digits
  // give exactly without trailing zeros, 999.5 KiB and more in MiB; marked
  // "≈ " when rounded ("≈ 882 KiB") and "= " when exact ("= 1.5 GiB"); ""
  // under 1 KiB, whose exact figure says it all.
  function approx(q) {
    if (q.n < 0n) { const a = approx({ n: -q.n, d: q.d }); return a && a.slice(0, 2) + '-' + a.slice(2); }
    if (cmp(q, Q(1024n)) < 0) return '';
    let u = 0;
    while (u + 1 < UNITS.length && cmp(q, Q(UNITS[u + 1][1])) >= 0) u++;
    let s = significant({ n: q.n, d: q.d * UNITS[u][1] }, 3);
    const whole = s.split('.')[0].length;
    if (whole > 3) {
      if (u + 1 < UNITS.length) { u++; s = significant({ n: q.n, d: q.d * UNITS[u][1] }, 3); }
      else s = significant({ n: q.n, d: q.d * UNITS[u][1] }, whole); // past EiB, every whole digit
    }
    // Exact when the figure's digits times the unit are q.
    const point = s.indexOf('.');
    const places = point < 0 ? 0 : s.length - point - 1;
    const exact = BigInt(s.replace('.', '')) * UNITS[u][1] * q.d === q.n * 10n ** BigInt(places);
    return (exact ? '= ' : '≈ ') + s + ' ' + UNITS[u][0];
  }
  // approxWords is approx for a sentence: "≈ 882 KiB", or "1.5 GiB" when
  // exact.
  function approxWords(q) { const a = approx(q); return a.startsWith('= ') ? a.slice(2) : a; }
  // significant writes v > 0 to the given significant digits, half to
  // even, or exactly without trailing zeros when they hold it exactly.
  function significant(v, digits) {
    let k = 0; // the exponent of v's leading digit
    if (v.n >= v.d) k = (v.n / v.d).toString().length - 1;
    else for (let t = v.n; t < v.d; t *= 10n) k--;
    let e = digits - 1 - k; // v · 10^e has the digits before its point
    const num = e >= 0 ? v.n * 10n ** BigInt(e) : v.n;
    const den = e >= 0 ? v.d : v.d * 10n ** BigInt(-e);
    let m = num / den;
    const r = num % den;
    if (2n * r > den || (2n * r === den && m % 2n === 1n)) m++;
    if (m.toString().length > digits) { m /= 10n; e--; } // 9.995 to 10.0
    let s = m.toString();
    if (e > 0) {
      if (s.length <= e) s = '0'.repeat(e - s.length + 1) + s;
      s = s.slice(0, s.length - e) + '.' + s.slice(s.length - e);
    } else if (e < 0) s += '0'.repeat(-e);
    if (r === 0n && s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
    return s;
  }
  function percent(share, peak) {
    if (peak.n <= 0n) return '–';
    if (share.n === 0n) return '0%';
    if (share.n === peak.n && share.d === peak.d) return '100%';
    if (share.n < 0n) return '−' + percent({ n: -share.n, d: share.d }, peak);
    const k = floorDiv(2000n * share.n * peak.d + share.d * peak.n, 2n * share.d * peak.n);
    if (k === 0n) return '<0.1%';
    if (k === 1000n && share.n * peak.d < peak.n * share.d) return '>99.9%';
    return (k / 10n).toString() + '.' + (k % 10n).toString() + '%';
  }
  const PALETTE = [[255, 245, 235], [253, 208, 162], [253, 141, 60], [217, 72, 1], [127, 39, 4]];
  function shareColour(share, peak) {
    let f = peak.n > 0n ? toNumber(share) / toNumber(peak) : 0;
    f = Math.min(Math.max(f, 0), 1);
    const pos = f * (PALETTE.length - 1);
    const i = Math.min(Math.floor(pos), PALETTE.length - 2);
    const t = pos - i;
    const rgb = PALETTE[i].map(function (v, j) { return Math.floor(v + (PALETTE[i + 1][j] - v) * t + 0.5); });
    return { fill: 'rgb(' + rgb.join(',') + ')', white: f > 0.6 };
  }

  // ---- The DOM. ----
  function el(tag, attrs, kids) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'class') e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    for (const kid of kids || []) e.append(kid);
    return e;
  }
  function svg(tag, attrs, kids) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs || {}) {
      if (k === 'text') e.textContent = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    for (const kid of kids || []) e.append(kid);
    return e;
  }
  const shown = {}; // data-k → element showing that figure
  function figure(key, tag, cls) {
    const e = el(tag || 'span', { class: cls || '', 'data-k': key });
    shown[key] = e;
    return e;
  }
  function put(key, text) { shown[key].textContent = text; }

  const TYPE_NAMES = {
    recorded: 'as recorded', f32: 'f32 (4 B)', bf16: 'bf16 (2 B)', f16: 'f16 (2 B)', f8: 'f8 (1 B)', int8: 'int8 (1 B)',
    int4: 'int4 + f32 scale per ' + data.int4Group,
  };

  // ---- State. ----
  const state = {
    x: data.dims.map(function (d) { return BigInt(d.value); }),
    types: data.groups.map(function () { return 'recorded'; }),
    budget: Q(BigInt(data.budgets[0]) << 30n),
  };

  const page = document.getElementById('page');
  const subtitle = [data.entry, data.consts, data.realization, group(BigInt(data.ops)) + (data.ops === 1 ? ' operation' : ' operations')].filter(Boolean).join(' · ');
  page.append(el('header', {}, [el('h1', { text: data.title + ': memory' }), el('p', { text: subtitle })].concat(data.unchecked
    ? [el('p', { class: 'unchecked', text: 'UNCHECKED: no point off the grid was recorded to check the polynomials (give --check)' })] : []).concat(data.negative
    ? [el('p', { class: 'unchecked', text: 'Note: ' + data.negative + ': where a buffer\'s bytes are negative, the polynomials are not the program\'s, nor are this page\'s figures there' })] : [])));

  // Dimensions: a slider (logarithmic when its largest value is beyond 64
  // times its least) and an exact number box, each from the least value
  // to the largest at which the program runs.
  const dimsCard = el('div', { class: 'card' }, [el('h2', { text: 'Dimensions' })]);
  const dimControls = data.dims.map(function (d, j) {
    const log = d.max > 64 * d.min;
    const span = Math.log(d.max / d.min);
    const slider = el('input', { type: 'range', min: log ? 0 : d.min, max: log ? 1000 : d.max, step: 1, 'aria-label': d.name, 'data-dim': d.name });
    const box = el('input', { type: 'number', min: d.min, max: d.max, step: 1, value: d.value, 'aria-label': d.name + ' value', 'data-dimbox': d.name });
    function toPos(v) { return log ? Math.round(Math.log(v / d.min) / span * 1000) : v; }
    function fromPos(p) { return log ? Math.min(d.max, Math.max(d.min, Math.round(d.min * Math.exp(p / 1000 * span)))) : p; }
    slider.value = toPos(d.value);
    slider.addEventListener('input', function () {
      const v = fromPos(Number(slider.value));
      box.value = v;
      box.classList.remove('bad');
      state.x[j] = BigInt(v);
      schedule();
    });
    box.addEventListener('input', function () {
      const s = box.value.trim();
      if (!/^\d+$/.test(s) || BigInt(s) < BigInt(d.min) || BigInt(s) > BigInt(d.max)) { box.classList.add('bad'); return; }
      box.classList.remove('bad');
      state.x[j] = BigInt(s);
      slider.value = toPos(Number(s));
      schedule();
    });
    dimsCard.append(el('div', { class: 'dim' }, [el('label', { text: d.name }), slider, box]),
      el('div', { class: 'dim' }, [el('span'), el('span', { class: 'hint', 'data-hint': d.name,
        text: [group(BigInt(d.min)) + ' to ' + group(BigInt(d.max)), 'recorded at ' + d.grid.join(', ')].concat(d.stops || []).join('; ') })]));
    return { slider: slider, box: box };
  });
  if (!data.dims.length) dimsCard.append(el('p', { class: 'note', text: 'The program has no dimensions: its bytes are the same at every point, read from one recording.' }));

  // The budget: 24, 40 or 80 GiB, or a free value in GiB.
  const budgetSelect = el('select', { 'aria-label': 'budget' });
  for (const g of data.budgets) budgetSelect.append(el('option', { value: String(g), text: g + ' GiB' }));
  budgetSelect.append(el('option', { value: 'free', text: 'other…' }));
  const budgetFree = el('input', { type: 'text', value: '16', 'aria-label': 'budget in GiB', inputmode: 'decimal', disabled: '' });
  function readBudget() {
    budgetFree.disabled = budgetSelect.value !== 'free';
    const q = budgetSelect.value === 'free' ? parseDecimal(budgetFree.value) : Q(BigInt(budgetSelect.value));
    if (q === null) { budgetFree.classList.add('bad'); return; }
    budgetFree.classList.remove('bad');
    state.budget = Q(q.n << 30n, q.d);
    schedule();
  }
  budgetSelect.addEventListener('input', readBudget);
  budgetFree.addEventListener('input', readBudget);
  const budgetCard = el('div', { class: 'card' }, [el('h2', { text: 'Memory budget' }),
    el('div', { class: 'budget' }, [budgetSelect, budgetFree, el('span', { text: 'GiB (2³⁰ bytes) =' }), figure('budget', 'span', 'num'), el('span', { text: 'bytes' })])]);

  // The numbers.
  function row(label, key, extra, cls) {
    return el('tr', { class: cls || '' }, [el('td', { text: label }), el('td', { class: 'num' }, [figure(key)]),
      el('td', { class: 'approx' }, [figure(key + '-approx')]), el('td', {}, extra || [])]);
  }
  const numbers = el('table', { class: 'numbers point' }, [
    el('tr', {}, [el('th', { text: '' }), el('th', { class: 'num', text: 'bytes, exact' }), el('th', { text: 'rounded' }), el('th', { text: '' })]),
    row('parameters', 'params', [figure('param-elements'), document.createTextNode(' elements')]),
    row('inputs held by the caller', 'inputs', [el('span', { text: 'the parameters and the other inputs' })]),
    row('peak of the live bytes', 'peak', [document.createTextNode('at operation '), figure('peak-op'), document.createTextNode(' '), figure('peak-where', 'code')], 'peak'),
    row('outputs', 'outputs', [el('span', { text: 'among the live bytes at the end' })]),
    row('needs', 'needs', [el('span', { text: 'inputs + peak' })], 'needs'),
  ]);
  const verdict = el('p', { class: 'verdict' });
  const crossList = el('ul', { class: 'cross' });
  const crossItems = data.dims.map(function (d) {
    const li = el('li');
    crossList.append(li);
    return li;
  });
  const numbersCard = el('div', { class: 'card' }, [el('h2', { text: 'Memory at this point' }), numbers,
    el('p', { class: 'note', text: 'The peak’s formula, the candidate that holds it here (its first operation):' }), figure('formula', 'code', 'formula'),
    verdict].concat(data.dims.length ? [el('div', { text: 'Where the needs cross the budget, one dimension moving, the others held:' }), crossList] : []).concat([
    el('p', { class: 'note', text: 'Figures in bytes are exact. Beside them, the same in binary units (1 GiB = 2³⁰ bytes): marked = where that is exact, ≈ where it is rounded to three significant digits.' })]));

  const controls = el('div', { class: 'stack' }, [dimsCard, budgetCard]);
  page.append(el('div', { class: 'grid' }, [controls, numbersCard]));

  // The training steps (with --step): each term from the step's own
  // polynomials, side by side.
  const STEP_TERMS = [['params', 'the parameters'], ['states', 'the optimizer’s states'], ['batch', 'the batch'],
    ['gradient', 'the gradient, live there'], ['kept', 'kept for the backward, live there'], ['own', 'the phase’s own working memory']];
  if (data.steps.length) {
    const rows = [el('tr', {}, [el('th', { text: '' })].concat(data.steps.map(function (s) {
      return el('th', { class: 'num', colspan: '2', text: s.name });
    })))];
    const stepRow = function (label, key, cls) {
      const tds = [el('td', { text: label })];
      data.steps.forEach(function (s, i) {
        tds.push(el('td', { class: 'num', 'data-step': s.name }, [figure('step-' + i + '-' + key)]), el('td', { class: 'approx' }, [figure('step-' + i + '-' + key + '-approx')]));
      });
      rows.push(el('tr', { class: cls || '' }, tds));
    };
    const stepWords = function (label, key, tag) {
      const tds = [el('td', { text: label })];
      data.steps.forEach(function (s, i) { tds.push(el('td', { colspan: '2', 'data-step': s.name }, [figure('step-' + i + '-' + key, tag)])); });
      rows.push(el('tr', {}, tds));
    };
    stepRow('the parameters', 'params');
    stepRow('the optimizer’s states', 'states');
    data.steps[0].parts.forEach(function (p, k) { stepRow('\u2003' + p.name, 'part-' + k); });
    stepRow('the gradient', 'gradient');
    stepRow('the batch', 'batch');
    stepRow('kept for the backward', 'kept');
    data.steps[0].phases.forEach(function (ph) {
      stepRow('the ' + ph.phase + ' phase’s peak', 'phase-' + ph.phase);
      stepWords('\u2003at operation', 'phase-' + ph.phase + '-op');
      stepWords('', 'phase-' + ph.phase + '-where', 'code');
    });
    stepRow('the step’s peak', 'peak', 'peak');
    stepWords('\u2003in the phase', 'peak-phase');
    stepWords('\u2003at operation', 'peak-op');
    stepWords('', 'peak-where', 'code');
    for (const t of STEP_TERMS) stepRow('\u2003' + t[1], 'peak-' + t[0]);
    stepWords('against the budget', 'fit');
    stepRow('\u2003by', 'margin');
    page.append(el('div', { class: 'card' }, [el('h2', { text: 'A training step: ' + data.steps.map(function (s) { return s.name; }).join(' and ') }),
      el('table', { class: 'numbers steps' }, rows),
      el('p', { class: 'note', text: 'Each step is counted from its own polynomials at the dimensions above (docs/step.md): the loop holds the parameters, ' +
        'the optimizer’s states and the batch; each phase’s peak is the largest sum at its operations, the first operation reaching it, and the step’s peak the largest of them. ' +
        'The six terms of the step’s peak sum to it. The stored types of the parameters’ groups below re-type the forward pass’s parameters only: each step keeps the types it was recorded in.' })]));
  }

  // The curve.
  // It is drawn 1 180 wide, scaled to its card, or as wide as its card
  // where that is narrower than 700 px (a phone's), so that its labels
  // keep their size.
  let CW = 1180;
  const CH = 330, CL = 86, CR = 30, CT = 14, CB = 62;
  const curveSvg = svg('svg', { viewBox: '0 0 ' + CW + ' ' + CH, width: CW, height: CH, 'font-size': 11, role: 'img', 'aria-label': 'live bytes over the operations' });
  const curveBox = el('div', {}, [curveSvg]);
  window.addEventListener('resize', function () { schedule(); });
  const curveCard = el('div', { class: 'card' }, [el('h2', { text: 'Live bytes over the operations, and the room the budget leaves them beside the inputs' }), curveBox,
    el('div', { class: 'legend' }, [el('span', { style: '--sw:#fdd0a2', text: 'live bytes' }), el('span', { style: '--sw:#b2182b', text: 'over the budget' }),
      el('span', { style: '--sw:repeating-linear-gradient(90deg,#b2182b 0 6px,#fff 6px 10px)', text: 'budget − inputs held: the room for the live bytes' })]),
    figure('curve-note', 'p', 'note')]);
  page.append(curveCard);

  // The stored types.
  const typeRows = data.groups.map(function (g, i) {
    const typed = g.parts.some(function (p) { return p[0] >= 0; });
    const select = el('select', { 'aria-label': 'stored type of ' + g.title, 'data-group': String(i) });
    for (const t of data.types) select.append(el('option', { value: t, text: t === 'recorded' ? 'as recorded (' + g.types + ')' : TYPE_NAMES[t] }));
    if (!typed) select.disabled = true;
    select.addEventListener('input', function () { state.types[i] = select.value; schedule(); });
    return el('tr', {}, [el('td', { text: g.title }), el('td', { class: 'num' }, [figure('group-elements-' + i)]), el('td', {}, [select]),
      el('td', { class: 'num' }, [figure('group-' + i)]), el('td', { class: 'approx' }, [figure('group-' + i + '-approx')])]);
  });
  page.append(el('div', { class: 'card' }, [el('h2', { text: 'Stored types of the parameters, by group' }),
    el('table', { class: 'types' }, [el('tr', {}, [el('th', { text: 'group' }), el('th', { class: 'num', text: 'elements' }), el('th', { text: 'stored as' }),
      el('th', { class: 'num', text: 'bytes, exact' }), el('th', { text: 'rounded' })])].concat(typeRows)),
    el('p', { class: 'note', text: 'A stored type re-types every element of the group’s parameter buffers (elements = recorded bytes ÷ the recorded type’s size). ' +
      'int4 stores half a byte per element and one f32 scale (4 bytes) for each group of ' + data.int4Group + ' consecutive elements of each buffer, the last group perhaps shorter: e/2 + 4·⌈e/' + data.int4Group + '⌉ bytes for a buffer of e elements. ' +
      'Parameters given in bytes without a type keep their bytes. The parameters are held by the caller: they change the inputs and the needs, not the live bytes.' })]));

  // The network.
  const net = data.net;
  const netSvg = svg('svg', { viewBox: '0 0 ' + net.W + ' ' + net.H, width: net.W, height: net.H, 'font-size': 12, role: 'img', 'aria-label': 'the network' });
  const netParts = net.Boxes.map(function (b) {
    const rect = svg('rect', { x: b.X + 0.5, y: b.Y + 0.5, width: b.W - 1, height: b.H - 1, rx: 3, fill: '#f6f6f6', stroke: '#555' });
    const title = svg('text', { x: b.X + 6, y: b.Y + 16, text: b.Title });
    const share = b.Call >= 0 ? svg('text', { x: b.X + b.W - 6, y: b.Y + 16, 'text-anchor': 'end', 'font-weight': 'bold', 'data-k': 'share-' + b.Call }) : null;
    const tip = svg('title');
    const g = svg('g', {}, [tip, rect, title].concat(share ? [share] : []));
    netSvg.append(g);
    if (share) shown['share-' + b.Call] = share;
    return { box: b, rect: rect, title: title, share: share, tip: tip };
  });
  const shareRows = data.calls.map(function (c, k) {
    const name = k === 0 ? '(own operations)' : '\u2003'.repeat(c.depth - 1) + c.title;
    return el('tr', {}, [el('td', { text: name }), el('td', { class: 'num' }, [figure('sharebytes-' + k)]), el('td', { class: 'num' }, [figure('sharepct-' + k)])]);
  });
  page.append(el('div', { class: 'card' }, [el('h2', { text: 'The network: each call’s share of the peak' }), netSvg,
    el('p', { class: 'note', text: 'A call’s share is the bytes made under it (first written by one of its operations) that are live at the peak’s operation; a fold’s iterations are counted together. The darker, the larger the share.' }),
    el('details', {}, [el('summary', { text: 'the shares in bytes' }), el('table', {}, [el('tr', {}, [el('th', { text: 'call' }), el('th', { class: 'num', text: 'share, bytes' }), el('th', { class: 'num', text: 'of the peak' })])].concat(shareRows))])]));

  // ---- Counting. ----
  function retype(t, e, recorded) {
    switch (t) {
      case 'f32': return mulInt(e, 4n);
      case 'bf16': case 'f16': return mulInt(e, 2n);
      case 'f8': case 'int8': return e;
      case 'int4': return add(Q(e.n, e.d * 2n), Q(4n * ceilDiv(e.n, e.d * BigInt(data.int4Group))));
    }
    return recorded;
  }
  // count returns everything the page shows at x with the given types.
  function count(x, types) {
    const r = { params: ZERO, elements: ZERO, outputs: evalPoly(polys[data.outputsOther], x), groups: [], groupElements: [] };
    data.groups.forEach(function (g, i) {
      let bytes = ZERO, elems = ZERO;
      for (const p of g.parts) {
        const recorded = evalPoly(polys[p[1]], x);
        let b = recorded;
        if (p[0] >= 0) {
          const e = evalPoly(polys[p[0]], x);
          b = retype(types[i], e, recorded);
          elems = add(elems, mulInt(e, BigInt(p[2])));
        }
        bytes = add(bytes, mulInt(b, BigInt(p[2])));
        if (p[3] > 0) r.outputs = add(r.outputs, mulInt(b, BigInt(p[3])));
      }
      r.groups.push(bytes);
      r.groupElements.push(elems);
      r.params = add(r.params, bytes);
      r.elements = add(r.elements, elems);
    });
    r.inputs = add(evalPoly(polys[data.inputsOther], x), r.params);
    r.values = data.cands.map(function (c) { return evalPoly(polys[c.poly], x); });
    r.peak = ZERO;
    for (const k of data.kept) if (cmp(r.values[k], r.peak) > 0) r.peak = r.values[k];
    r.holder = -1;
    data.cands.forEach(function (c, i) {
      if (cmp(r.values[i], r.peak) === 0 && (r.holder < 0 || c.op < data.cands[r.holder].op)) r.holder = i;
    });
    r.needs = add(r.inputs, r.peak);
    r.steps = data.steps.map(function (s) { return stepCount(s, x); });
    r.shares = data.calls.map(function (_, k) {
      if (r.holder < 0) return ZERO;
      const s = data.cands[r.holder].shares[k];
      return s < 0 ? ZERO : evalPoly(polys[s], x);
    });
    return r;
  }

  // stepCount returns a step's terms at x: each phase's peak the largest of
  // its sums, at the first operation reaching it; the step's peak the first
  // of the phases' largest.
  function stepCount(s, x) {
    const v = function (k) { return evalPoly(polys[k], x); };
    const r = { params: v(s.params), states: v(s.states), gradient: v(s.gradient), batch: v(s.batch), kept: v(s.kept),
      parts: s.parts.map(function (p) { return v(p.bytes); }), phases: {}, peak: null };
    for (const ph of s.phases) {
      let best = -1, top = null;
      ph.cands.forEach(function (c, i) {
        const val = v(c[0]);
        if (best < 0 || cmp(val, top) > 0) { best = i; top = val; }
      });
      const c = ph.cands[best];
      const p = { phase: ph.phase, bytes: top, op: c[1], where: ph.labels[best],
        terms: { params: r.params, states: r.states, batch: v(ph.batch), gradient: v(c[2]), kept: v(c[3]), own: v(c[4]) } };
      r.phases[ph.phase] = p;
      if (r.peak === null || cmp(p.bytes, r.peak.bytes) > 0) r.peak = p;
    }
    return r;
  }

  // over returns the least value of dimension j from its least to its
  // largest at which the needs exceed the budget, the others at x, or 0n.
  // In dimension j alone, the needs are the largest over the kept
  // candidates k of S_k = A + C_k + I: A the inputs but int4's scales and
  // C_k the candidate, polynomials with rational coefficients, brought
  // over one common denominator L; I int4's scales, 4·⌈e/32⌉ bytes for
  // each buffer of e elements, e a polynomial too. The least value for the
  // needs is the least over k of the least at which S_k exceeds the
  // budget, each found exactly (firstPositive) in time that grows with the
  // polynomials' degree and the logarithm of the range, never with the
  // range itself: a range of 2^53 values is as quick as one of ten.
  // Without int4, S_k − budget is a polynomial. With it, ⌈e/32⌉ = ⌈E/M⌉
  // for E = e·dE, of integer coefficients, and M = 32·dE; and ⌈E/M⌉ =
  // (E + r)/M where r = (−E) mod M depends only on the value modulo M. So
  // on each residue class v = c + P·t, P the least common multiple of the
  // buffers' M, S_k − budget is a polynomial in t. First, I's bounds,
  // Σ 4·E/M and Σ 4·(E + M − 1)/M, bracket the answer; when only a few
  // values lie between, they are tried in turn, else each residue class.
  function over(x, types, budget, j) {
    const X = x.slice();
    const fixed = restrict(polys[data.inputsOther], X, j);
    const int4s = [];
    function addTo(cs, more, k) {
      while (cs.length < more.length) cs.push(ZERO);
      more.forEach(function (c, i) { cs[i] = add(cs[i], mulInt(c, k)); });
    }
    const G = BigInt(data.int4Group);
    data.groups.forEach(function (g, i) {
      for (const p of g.parts) {
        const k = BigInt(p[2]);
        if (p[0] < 0 || types[i] === 'recorded') { addTo(fixed, restrict(polys[p[1]], X, j), k); continue; }
        const e = restrict(polys[p[0]], X, j);
        const factor = { f32: 4n, bf16: 2n, f16: 2n, f8: 1n, int8: 1n }[types[i]];
        if (factor !== undefined) { addTo(fixed, e, factor * k); continue; }
        addTo(fixed, e.map(function (c) { return Q(c.n, c.d * 2n); }), k); // int4's half bytes
        let dE = 1n;
        for (const c of e) dE = lcm(dE, c.d);
        int4s.push({ E: e.map(function (c) { return c.n * (dE / c.d); }), M: G * dE, k: k });
      }
    });
    const kept = data.kept.map(function (c) { return restrict(polys[data.cands[c].poly], X, j); });
    kept.push([ZERO]); // the peak is never below 0
    let L = 1n;
    for (const cs of [fixed].concat(kept)) for (const c of cs) L = lcm(L, c.d);
    let period = 1n; // the scales' residues repeat with it
    for (const q of int4s) { L = lcm(L, q.M); period = lcm(period, q.M); }
    const scale = function (cs) { return cs.map(function (c) { return c.n * (L / c.d); }); };
    const A = scale(fixed), K = kept.map(scale);
    // needs > budget ⇔ S·budget.d > budget.n·L, S the needs times L: each
    // int4 buffer adds 4·k·(L/M)·(E + r) to S, r its rounding up to a
    // multiple of M; below, each polynomial is (S − budget·L/budget.d)
    // times budget.d, by power.
    const scales = [0n]; // Σ 4·k·(L/M)·E over the buffers, by power
    let ups = 0n; // the most the roundings add: 4·k·(L/M)·(M − 1) of each
    for (const q of int4s) {
      const f = 4n * q.k * (L / q.M);
      while (scales.length < q.E.length) scales.push(0n);
      q.E.forEach(function (c, i) { scales[i] += f * c; });
      ups += f * (q.M - 1n);
    }
    const lo = BigInt(data.dims[j].min), top = BigInt(data.dims[j].max);
    // exceeds says whether the needs of low's candidate exceed the budget
    // at v: low, and each buffer's rounding up.
    const exceeds = function (low, v) {
      let S = horner(low, v);
      for (const q of int4s) S += 4n * q.k * (L / q.M) * mod(-horner(q.E, v), q.M) * budget.d;
      return S > 0n;
    };
    let best = 0n;
    K.forEach(function (C, k) {
      const hi = best ? best - 1n : top;
      if (hi < lo) return;
      // The needs but the scales' roundings, less the budget, times budget.d.
      const low = trim(sumPolys([A, C, scales]).map(function (c) { return c * budget.d; }));
      low[0] -= budget.n * L;
      const high = low.slice();
      high[0] += ups * budget.d;
      const from = firstPositive(high, lo, hi);
      if (from === null) return; // never over up to hi
      if (!int4s.length) { best = from; return; }
      const lowFrom = firstPositive(low, from, hi);
      const to = lowFrom === null ? hi : lowFrom;
      if (to - from < 4n * period) { // few enough to try each
        for (let v = from; v <= to; v++) if (exceeds(low, v)) { best = v; return; }
        return;
      }
      // Each residue class modulo the period, exactly.
      let found = to === lowFrom ? to : null;
      for (let c = 0n; c < period; c++) {
        // The values v0 + period·t, t from 0 to tHi, v0 = from + c.
        const v0 = from + c;
        const limit = found === null ? to : found - 1n;
        if (v0 > limit) continue;
        const tHi = (limit - v0) / period;
        let q = low;
        for (const b of int4s) {
          const E0 = horner(b.E, v0);
          const f = 4n * b.k * (L / b.M) * budget.d;
          q = addPoly(q, [f * mod(-E0, b.M)]);
        }
        const t = firstPositive(shift(q, v0, period), 0n, tHi);
        if (t !== null) found = v0 + period * t;
      }
      if (found !== null) best = found;
    });
    return best;
  }
  function mod(a, m) { const r = a % m; return r < 0n ? r + m : r; } // m > 0
  function horner(cs, v) {
    let s = 0n;
    for (let i = cs.length - 1; i >= 0; i--) s = s * v + cs[i];
    return s;
  }
  function trim(cs) {
    while (cs.length > 1 && cs[cs.length - 1] === 0n) cs.pop();
    return cs;
  }
  function sumPolys(list) {
    const out = [];
    for (const cs of list) cs.forEach(function (c, i) { out[i] = (out[i] || 0n) + c; });
    return trim(out);
  }
  function addPoly(a, b) { return sumPolys([a, b]); }
  // shift returns q(a + m·t) as a polynomial in t, by power.
  function shift(q, a, m) {
    let out = [0n];
    for (let i = q.length - 1; i >= 0; i--) {
      const next = new Array(out.length + 1).fill(0n);
      out.forEach(function (c, k) { next[k] += c * a; next[k + 1] += c * m; });
      next[0] += q[i];
      out = next;
    }
    return trim(out);
  }
  function deriv(q) { return trim(q.length > 1 ? q.slice(1).map(function (c, i) { return c * BigInt(i + 1); }) : [0n]); }
  // firstWhere returns the least integer t from u to w at which ok holds,
  // ok false and then true along them, and true at w.
  function firstWhere(ok, u, w) {
    while (u < w) {
      const mid = u + (w - u) / 2n;
      if (ok(mid)) w = mid; else u = mid + 1n;
    }
    return u;
  }
  // pieces returns integers lo = p0 < … < pm = hi such that q, an integer
  // polynomial by power, is monotone on each real interval [p_i, p_i+1]:
  // the ends, and the integers either side of each point where q′ changes
  // sign. q′ is monotone on its own pieces, so it changes sign at most once
  // in each, found by bisection.
  function pieces(q, lo, hi) {
    if (lo >= hi) return [lo];
    if (trim(q.slice()).length <= 2) return [lo, hi];
    const d = deriv(q);
    const ps = pieces(d, lo, hi);
    const out = [lo, hi];
    for (let i = 0; i + 1 < ps.length; i++) {
      const u = ps[i], w = ps[i + 1];
      const du = horner(d, u), dw = horner(d, w);
      let t = null;
      if (du < 0n && dw > 0n) t = firstWhere(function (v) { return horner(d, v) >= 0n; }, u, w);
      else if (du > 0n && dw < 0n) t = firstWhere(function (v) { return horner(d, v) <= 0n; }, u, w);
      if (t !== null) out.push(t - 1n, t);
    }
    out.sort(function (a, b) { return a < b ? -1 : a > b ? 1 : 0; });
    return out.filter(function (v, i) { return i === 0 || v !== out[i - 1]; });
  }
  // firstPositive returns the least integer v from lo to hi with q(v) > 0,
  // q an integer polynomial by power, or null: on each of q's monotone
  // pieces, q rises above 0 at most once.
  function firstPositive(q, lo, hi) {
    if (lo > hi) return null;
    const ps = pieces(q, lo, hi);
    if (horner(q, ps[0]) > 0n) return ps[0];
    for (let i = 0; i + 1 < ps.length; i++) {
      if (horner(q, ps[i + 1]) > 0n) return firstWhere(function (v) { return horner(q, v) > 0n; }, ps[i], ps[i + 1]);
    }
    return null;
  }

  // ---- Drawing. ----
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  const TICK_STEPS = [1n, 2n, 5n];
  // byteTicks returns exact tick values from 0 to about top, in a binary unit.
  function byteTicks(top) {
    const units = [['B', 1n], ['KiB', 1n << 10n], ['MiB', 1n << 20n], ['GiB', 1n << 30n], ['TiB', 1n << 40n]];
    let unit = units[0];
    for (const u of units) if (top >= Number(u[1])) unit = u;
    const inUnit = top / Number(unit[1]);
    let step = 1n;
    outer: for (let p = 0n; p < 30n; p++) {
      for (const s of TICK_STEPS) {
        const st = s * 10n ** p;
        if (inUnit / Number(st) <= 6) { step = st; break outer; }
      }
    }
    const ticks = [];
    for (let k = 0n; Number(k * step) <= inUnit * 1.0001; k++) ticks.push({ bytes: k * step * unit[1], label: group(k * step) + ' ' + unit[0] });
    return ticks;
  }
  // drawCurve draws the live bytes at each operation and the room the
  // budget leaves them beside the inputs: needs ≤ budget exactly when the
  // peak ≤ budget − inputs.
  function drawCurve(r) {
    clear(curveSvg);
    const boxW = curveBox.clientWidth;
    const cw = boxW > 0 && boxW < 700 ? Math.max(320, Math.floor(boxW)) : 1180;
    if (cw !== CW) {
      CW = cw;
      curveSvg.setAttribute('viewBox', '0 0 ' + CW + ' ' + CH);
      curveSvg.setAttribute('width', CW);
    }
    const n = data.ops, w = data.curve.w;
    const plotW = CW - CL - CR, plotH = CH - CT - CB;
    const buckets = data.curve.buckets === '' ? [] : data.curve.buckets.split(',').map(function (b) { return b.split('.').map(function (c) { return parseInt(c, 36); }); });
    const highs = [], lows = [];
    for (const cs of buckets) {
      let hi = null, lo = null;
      for (const c of cs) {
        if (hi === null || cmp(r.values[c], hi) > 0) hi = r.values[c];
        if (lo === null || cmp(r.values[c], lo) < 0) lo = r.values[c];
      }
      highs.push(hi);
      lows.push(lo);
    }
    const room = sub(state.budget, r.inputs);
    const peak = toNumber(r.peak), roomN = toNumber(room);
    let yTop = Math.max(peak, 1);
    if (roomN > yTop && roomN <= 1.6 * yTop) yTop = roomN;
    yTop *= 1.04;
    const X = function (op) { return CL + (n ? op / n : 0) * plotW; }; // the left edge of operation op+1
    const Y = function (v) { return CT + plotH - Math.max(0, Math.min(1.03, v / yTop)) * plotH; };
    const f2 = function (v) { return v.toFixed(2); };
    for (const t of byteTicks(yTop)) {
      const y = Y(Number(t.bytes));
      curveSvg.append(svg('line', { x1: CL, x2: CL + plotW, y1: f2(y), y2: f2(y), stroke: '#e4e4e8' }));
      curveSvg.append(svg('text', { x: CL - 6, y: f2(y + 4), 'text-anchor': 'end', text: t.label }));
    }
    const base = Y(0);
    let d = '', overD = '';
    const roomY = Y(Math.max(0, roomN));
    highs.forEach(function (h, b) {
      const x0 = X(b * w), x1 = X(Math.min(n, (b + 1) * w));
      const y = Y(toNumber(h));
      d += (b === 0 ? 'M' + f2(x0) + ' ' + f2(base) + 'V' : 'V') + f2(y) + 'H' + f2(x1);
      if (cmp(h, room) > 0) overD += 'M' + f2(x0) + ' ' + f2(roomY) + 'V' + f2(y) + 'H' + f2(x1) + 'V' + f2(roomY) + 'Z';
    });
    if (d) {
      d += 'V' + f2(base) + 'Z';
      curveSvg.append(svg('path', { d: d, fill: '#fdd0a2', stroke: '#d94801', 'stroke-width': 1.2 }));
    }
    if (w > 1) { // the least live bytes of each step, under the largest
      let dl = '';
      lows.forEach(function (l, b) {
        dl += (b === 0 ? 'M' + f2(X(0)) + ' ' + f2(base) + 'V' : 'V') + f2(Y(toNumber(l))) + 'H' + f2(X(Math.min(n, (b + 1) * w)));
      });
      curveSvg.append(svg('path', { d: dl + 'V' + f2(base) + 'Z', fill: '#fd8d3c', 'fill-opacity': 0.7 }));
    }
    if (overD) curveSvg.append(svg('path', { d: overD, fill: '#b2182b', 'fill-opacity': 0.6 }));
    // Axes.
    curveSvg.append(svg('path', { d: 'M' + CL + ' ' + CT + 'V' + (CT + plotH) + 'H' + (CL + plotW), fill: 'none', stroke: '#333' }));
    let xs = 1;
    if (n > 10) {
      const p = Math.pow(10, Math.floor(Math.log10(n / 10)));
      xs = [1, 2, 5, 10].map(function (k) { return k * p; }).find(function (k) { return k >= n / 10; });
    }
    for (let op = xs; op <= n; op += xs) {
      const x = X(op - 0.5);
      curveSvg.append(svg('line', { x1: f2(x), x2: f2(x), y1: CT + plotH, y2: CT + plotH + 4, stroke: '#333' }));
      curveSvg.append(svg('text', { x: f2(x), y: CT + plotH + 15, 'text-anchor': 'middle', text: group(BigInt(op)) }));
    }
    curveSvg.append(svg('text', { x: CL + plotW, y: CH - 4, 'text-anchor': 'end', fill: '#6a6a70', text: 'operation' + (w > 1 ? ' (in steps of ' + w + ')' : '') }));
    // The calls' bands.
    data.bands.forEach(function (b, i) {
      const x0 = X(b.From - 1), x1 = X(b.To);
      const y = CT + plotH + 22;
      const g = svg('g', {}, [svg('title', { text: b.Label + ': operations ' + b.From + ' to ' + b.To })]);
      g.append(svg('rect', { x: f2(x0), y: y, width: f2(Math.max(1, x1 - x0 - 1)), height: 18, fill: i % 2 ? '#dbe4f0' : '#c6d5ea' }));
      if (x1 - x0 > b.Label.length * 6.6 + 6) g.append(svg('text', { x: f2((x0 + x1) / 2), y: y + 13, 'text-anchor': 'middle', text: b.Label }));
      curveSvg.append(g);
    });
    // The room the budget leaves, and the peak.
    if (roomN >= 0 && roomN <= yTop * 1.03) {
      curveSvg.append(svg('line', { x1: CL, x2: CL + plotW, y1: f2(roomY), y2: f2(roomY), stroke: '#b2182b', 'stroke-width': 1.5, 'stroke-dasharray': '6 4' }));
      curveSvg.append(svg('text', { x: CL + plotW - 4, y: f2(roomY - 5), 'text-anchor': 'end', fill: '#b2182b', text: 'budget − inputs' }));
    }
    if (r.holder >= 0) {
      const op = data.cands[r.holder].op;
      const x = X(op - 0.5), y = Y(peak);
      curveSvg.append(svg('circle', { cx: f2(x), cy: f2(y), r: 4, fill: '#fff', stroke: '#000', 'stroke-width': 1.5 }));
      const right = x < CL + plotW * 0.7;
      curveSvg.append(svg('text', { x: f2(right ? x + 8 : x - 8), y: f2(Math.max(CT + 10, y - 6)), 'text-anchor': right ? 'start' : 'end', 'font-weight': 'bold', text: 'peak, operation ' + op }));
    }
    let note = '';
    if (room.n < 0n) note = 'The inputs alone, ' + approxWords(r.inputs) + ', exceed the budget: no live bytes fit. ';
    else if (roomN > yTop * 1.03) note = 'The budget leaves ' + approxWords(room) + ' for the live bytes beside the inputs, above the drawing. ';
    if (w > 1) note += 'Each step of ' + w + ' operations draws their largest live bytes, and in the darker shade their least; the figures above are exact.';
    put('curve-note', note);
  }
  function drawNetwork(r) {
    for (const p of netParts) {
      if (p.box.Call < 0) { p.tip.textContent = p.box.Title + ': the peak ' + exact(r.peak) + ' B'; continue; }
      const s = r.shares[p.box.Call];
      const c = shareColour(s, r.peak);
      p.rect.setAttribute('fill', c.fill);
      p.title.setAttribute('fill', c.white ? '#fff' : '#000');
      p.share.setAttribute('fill', c.white ? '#fff' : '#000');
      p.share.textContent = percent(s, r.peak);
      p.tip.textContent = p.box.Title + ': ' + exact(s) + ' B of the peak’s ' + exact(r.peak) + ' B';
    }
  }

  // ---- Updating. ----
  let last = null;
  function update() {
    pending = false;
    const r = count(state.x, state.types);
    last = r;
    put('budget', exact(state.budget));
    for (const k of ['params', 'inputs', 'peak', 'outputs', 'needs']) {
      put(k, exact(r[k]));
      put(k + '-approx', approx(r[k]));
    }
    put('param-elements', exact(r.elements));
    if (r.holder >= 0) {
      const c = data.cands[r.holder];
      put('peak-op', String(c.op));
      put('peak-where', c.label + (c.path ? ' in ' + c.path : ''));
      put('formula', formatPoly(polys[c.poly]));
    } else {
      put('peak-op', '0');
      put('peak-where', '(no operations)');
      put('formula', '0');
    }
    r.groups.forEach(function (b, i) {
      put('group-' + i, exact(b));
      put('group-' + i + '-approx', approx(b));
      put('group-elements-' + i, exact(r.groupElements[i]));
    });
    r.shares.forEach(function (s, k) {
      put('sharebytes-' + k, exact(s));
      put('sharepct-' + k, percent(s, r.peak));
    });
    const c = cmp(r.needs, state.budget);
    verdict.className = 'verdict ' + (c > 0 ? 'over' : 'fits');
    clear(verdict);
    const margin = figure('margin');
    margin.textContent = exact(c > 0 ? sub(r.needs, state.budget) : sub(state.budget, r.needs));
    if (c > 0) verdict.append('Over the budget by ', margin, ' bytes.');
    else verdict.append('Within the budget, ', margin, ' bytes to spare.');
    data.dims.forEach(function (d, j) {
      const v = over(state.x, state.types, state.budget, j);
      const held = data.dims.filter(function (_, i) { return i !== j; }).map(function (o) { return o.name + ' = ' + group(state.x[data.dims.indexOf(o)]); }).join(', ');
      const li = crossItems[j];
      clear(li);
      const fig = figure('over-' + d.name, 'b');
      fig.textContent = v ? group(BigInt(v)) : 'none';
      if (v) li.append('along ' + d.name + (held ? ' (' + held + ')' : '') + ': over the budget from ' + d.name + ' = ', fig);
      else li.append('along ' + d.name + (held ? ' (' + held + ')' : '') + ': within it up to ' + d.name + ' = ' + group(BigInt(d.max)) + ' (crossing: ', fig, ')');
    });
    drawCurve(r);
    drawNetwork(r);
    r.steps.forEach(function (st, i) {
      const k = function (key, q) { put('step-' + i + '-' + key, exact(q)); put('step-' + i + '-' + key + '-approx', approx(q)); };
      for (const t of ['params', 'states', 'gradient', 'batch', 'kept']) k(t, st[t]);
      data.steps[0].parts.forEach(function (_, j) {
        if (j < st.parts.length) k('part-' + j, st.parts[j]);
        else { put('step-' + i + '-part-' + j, '–'); put('step-' + i + '-part-' + j + '-approx', ''); }
      });
      data.steps[0].phases.forEach(function (ph) {
        const p = st.phases[ph.phase];
        const key = 'phase-' + ph.phase;
        if (!p) { put('step-' + i + '-' + key, '–'); put('step-' + i + '-' + key + '-approx', ''); put('step-' + i + '-' + key + '-op', '–'); put('step-' + i + '-' + key + '-where', ''); return; }
        k(key, p.bytes);
        put('step-' + i + '-' + key + '-op', String(p.op));
        put('step-' + i + '-' + key + '-where', p.where);
      });
      k('peak', st.peak.bytes);
      put('step-' + i + '-peak-phase', st.peak.phase);
      put('step-' + i + '-peak-op', String(st.peak.op));
      put('step-' + i + '-peak-where', st.peak.where);
      for (const t of STEP_TERMS) k('peak-' + t[0], st.peak.terms[t[0]]);
      const over = cmp(st.peak.bytes, state.budget) > 0;
      put('step-' + i + '-fit', over ? 'over the budget' : 'within the budget');
      k('margin', over ? sub(st.peak.bytes, state.budget) : sub(state.budget, st.peak.bytes));
    });
  }
  // Controls schedule an update; several changes at once make one.
  let pending = false;
  function schedule() {
    if (pending) return;
    pending = true;
    setTimeout(flush, 0);
  }
  function flush() { if (pending) update(); }

  update();

  // ---- Self-test: #test=SEED or #test=SEED,N sets the controls N times
  // (default 24) at random, as a user would, and writes what the page then
  // shows as JSON into a pre element of id memsym-test, for memsym's M4 test. ----
  const m = /^#test=(\d+)(?:,(\d+))?$/.exec(location.hash);
  if (m) selfTest(Number(m[1]), m[2] ? Number(m[2]) : 24);

  // The controls are set through their input events; flush then runs the
  // update they scheduled at once rather than on its timer.
  function selfTest(seed, runs) {
    let s = seed >>> 0;
    function rand() { // mulberry32
      s = (s + 0x6D2B79F5) >>> 0;
      let t = s;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    }
    function pick(xs) { return xs[Math.floor(rand() * xs.length)]; }
    function fire(e) { e.dispatchEvent(new Event('input', { bubbles: true })); }
    const text = function (k) { return shown[k].textContent.split(NNBSP).join(''); };
    const out = document.createElement('pre');
    out.id = 'memsym-test';
    const results = [];
    for (let i = 0; i < runs; i++) {
      data.dims.forEach(function (d, j) {
        const c = dimControls[j];
        const r = rand();
        if (r < 0.4) { c.slider.value = String(Math.floor(rand() * (Number(c.slider.max) - Number(c.slider.min) + 1)) + Number(c.slider.min)); fire(c.slider); }
        else if (r < 0.9) { c.box.value = String(Math.max(d.min, Math.min(d.max, Math.round(d.min * Math.exp(rand() * Math.log(d.max / d.min)))))); fire(c.box); }
        else { c.box.value = String(pick([d.min, d.max].concat(d.grid))); fire(c.box); }
      });
      document.querySelectorAll('select[data-group]').forEach(function (sel) {
        if (sel.disabled || rand() < 0.3) return;
        sel.value = pick(data.types);
        fire(sel);
      });
      flush();
      // The budget: a preset, a free value, or now and then exactly the
      // needs, at which the point is within the budget and the next value
      // of a dimension may not be.
      const r = rand();
      let free = null;
      if (r < 0.4) { budgetSelect.value = String(pick(data.budgets)); fire(budgetSelect); }
      else if (r < 0.6) free = String(Math.floor(rand() * 200)) + '.' + String(Math.floor(rand() * 1000)).padStart(3, '0');
      else if (r < 0.75) free = '0.' + String(Math.floor(rand() * 100000)).padStart(5, '0');
      else free = gibDecimal(last.needs) || '1';
      if (free !== null) {
        budgetSelect.value = 'free';
        fire(budgetSelect);
        budgetFree.value = free;
        fire(budgetFree);
      }
      flush();
      const got = { x: dimControls.map(function (c) { return c.box.value; }), types: state.types.slice(),
        budget: budgetSelect.value === 'free' ? budgetFree.value + ' GiB' : budgetSelect.value + ' GiB', shown: {} };
      for (const k of Object.keys(shown)) if (k !== 'curve-note') got.shown[k] = text(k);
      results.push(got);
    }
    out.textContent = JSON.stringify(results);
    document.body.append(out);
    // And exact figures of a few fractions and integers, which the test
    // compares with memsym's doc.Group: [numerator, denominator, shown].
    const exacts = document.createElement('pre');
    exacts.id = 'memsym-exact';
    exacts.textContent = JSON.stringify([[0n, 1n], [5n, 1n], [999n, 1n], [1000n, 1n], [-1234567n, 1n], [1n, 2n], [-1n, 2n], [-3n, 2n],
      [7n, 3n], [-7n, 3n], [4147n, 3n], [652029722624n, 5n], [378361n, 2n], [85897045335n, 2n], [1n, 1024n], [123456789n, 1000n],
      [1234567n, 40n], [10n ** 25n + 1n, 10n ** 6n], [2n ** 70n + 1n, 2n ** 20n], [1n, 6n], [10n ** 20n, 7n]].map(function (f) {
      const q = Q(f[0], f[1]);
      return [q.n.toString(), q.d.toString(), exact(q)];
    }));
    document.body.append(exacts);
    // gibDecimal writes q bytes in GiB as an exact decimal, or null when
    // that decimal does not end.
    function gibDecimal(q) {
      const den = q.d << 30n;
      let t = den, a = 0, b = 0;
      while (t % 2n === 0n) { t /= 2n; a++; }
      while (t % 5n === 0n) { t /= 5n; b++; }
      if (t !== 1n) return null;
      const k = Math.max(a, b);
      const digits = (q.n * 10n ** BigInt(k) / den).toString().padStart(k + 1, '0');
      return k ? digits.slice(0, digits.length - k) + '.' + digits.slice(digits.length - k) : digits;
    }
  }
})();
