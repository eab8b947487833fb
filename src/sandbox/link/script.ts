// The script of the link page, as it is sent to the browser (plain ES2019, no build step). It
// drives the public API with the page's short-lived user token: providers, credentials creation,
// polling with backoff (acting only when status or statusUpdated changes), supplemental rounds,
// the eID QR code, third-party app links; then asks the link service to finish the flow, which
// answers with the redirect target or the message for the parent frame. Data from the network is
// only ever written with textContent, and links pass safeUrl().
//
// Kept free of backticks and dollar-brace so it can live in this String.raw literal.
export const LINK_SCRIPT = String.raw`(function () {
  'use strict';
  var cfg = JSON.parse(document.getElementById('link-config').textContent);
  var T = cfg.texts;
  var screen = document.getElementById('screen');
  var cancelButton = document.getElementById('cancel');
  var has = function (o, k) { return Object.prototype.hasOwnProperty.call(o, k); };
  var st = { finished: false, credentials: null, provider: cfg.provider || null, timer: null, lastUpdated: null, lastStatus: null, failures: 0, seq: 0, providers: {} };

  function t(key, vars) {
    var s = has(T, key) ? T[key] : key;
    return s.replace(/\{(\w+)\}/g, function (m, k) { return vars && has(vars, k) ? String(vars[k]) : m; });
  }
  function el(tag, props, children) {
    var e = document.createElement(tag);
    if (props) {
      Object.keys(props).forEach(function (k) {
        var v = props[k];
        if (v === undefined || v === null || v === false) return;
        if (k === 'text') e.textContent = String(v);
        else if (k.slice(0, 2) === 'on' && typeof v === 'function') e.addEventListener(k.slice(2), v);
        else if (k === 'className') e.className = v;
        else e.setAttribute(k, v === true ? '' : String(v));
      });
    }
    (children || []).forEach(function (c) {
      if (c === null || c === undefined || c === false) return;
      e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return e;
  }
  function show(name, nodes) {
    screen.setAttribute('data-screen', name);
    while (screen.firstChild) screen.removeChild(screen.firstChild);
    nodes.forEach(function (n) { if (n) screen.appendChild(n); });
  }
  function heading(s) { return el('h2', { id: 'heading', text: s }); }
  function positive(n) { return typeof n === 'number' && isFinite(n) && n > 0; }
  function bankName() { var p = st.provider; return p ? String(p.displayName || p.name) : ''; }

  function parseBody(text) {
    if (!text) return null;
    try { return JSON.parse(text); } catch (e) { return text; }
  }
  function call(method, path, body, token) {
    var headers = { accept: 'application/json' };
    if (token) headers.authorization = 'Bearer ' + cfg.token;
    var init = { method: method, headers: headers, cache: 'no-store', credentials: 'omit' };
    if (body !== undefined) { headers['content-type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch(path, init).then(function (res) {
      return res.text().then(function (text) { return { status: res.status, data: parseBody(text), text: text }; });
    });
  }
  function api(method, path, body) { return call(method, path, body, true); }
  function errorText(r) {
    var d = r.data;
    if (d && typeof d === 'object') return String(d.errorMessage || d.detail || d.title || d.message || '').slice(0, 300);
    return typeof d === 'string' ? d.slice(0, 300) : '';
  }
  function safeUrl(u) {
    if (typeof u !== 'string' || u.length > 2048) return null;
    var parsed;
    try { parsed = new URL(u); } catch (e) { return null; }
    var p = parsed.protocol.toLowerCase();
    if (['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:', 'filesystem:'].indexOf(p) >= 0) return null;
    return parsed.href;
  }
  function parseJsonValue(v) {
    if (typeof v !== 'string') return v;
    try { return JSON.parse(v); } catch (e) { return null; }
  }

  // ---- the end of the flow: the link service decides where the result goes ----
  function finish(route, body) {
    if (st.finished) return;
    st.finished = true;
    clearTimeout(st.timer);
    cancelButton.disabled = true;
    body.session = cfg.session;
    call('POST', '/link/1.0/' + route, body, false).then(function (r) {
      if (r.status !== 200 || !r.data || typeof r.data !== 'object') {
        localError(r.status === 410 ? t('sessionExpired') : errorText(r) || t('userMsgINTERNAL_ERROR'));
        return;
      }
      deliver(r.data);
    }, function () { localError(t('networkError')); });
  }
  function deliver(a) {
    if (a.action === 'redirect' && typeof a.url === 'string') {
      show('returning', [heading(t('returning'))]);
      window.location.replace(a.url);
    } else if (a.action === 'postMessage' && a.message && typeof a.message === 'object') {
      var ok = a.message.type === 'code';
      var user = a.message.error && a.message.error.userMessage;
      show(ok ? 'done' : 'ended', [heading(ok ? t('doneHeading') : t('errorHeading')), el('p', { id: 'lead', text: ok ? t('doneText') : user || '' })]);
      if (window.parent !== window) window.parent.postMessage(a.message, a.targetOrigin);
    } else {
      localError(t('userMsgINTERNAL_ERROR'));
    }
  }
  function localError(message) {
    show('error', [heading(t('errorHeading')), el('p', { id: 'lead', className: 'error', text: message })]);
  }
  function fail(status) { finish('fail', { status: status, credentialsId: st.credentials ? st.credentials.id : undefined }); }
  function complete() { finish('complete', { credentialsId: st.credentials.id }); }
  cancelButton.addEventListener('click', function () { fail('USER_CANCELLED'); });

  // ---- provider picker ----
  function loadProviders(market) {
    if (st.providers[market]) return Promise.resolve(st.providers[market]);
    return api('GET', '/api/v1/providers?includeTestProviders=true&market=' + encodeURIComponent(market)).then(function (r) {
      if (r.status !== 200) throw new Error(errorText(r) || 'HTTP ' + r.status);
      var list = Array.isArray(r.data) ? r.data : r.data && Array.isArray(r.data.providers) ? r.data.providers : [];
      list = list.filter(function (p) { return p && typeof p === 'object' && typeof p.name === 'string' && p.market === market; });
      list.sort(function (a, b) {
        var ta = a.type === 'TEST' ? 0 : 1, tb = b.type === 'TEST' ? 0 : 1;
        return ta - tb || String(a.displayName || a.name).localeCompare(String(b.displayName || b.name));
      });
      st.providers[market] = list;
      return list;
    });
  }
  function picker() {
    st.provider = null;
    var market = st.market || cfg.market;
    var search = el('input', { type: 'search', id: 'search', placeholder: t('searchPlaceholder'), 'aria-label': t('searchLabel'), autocomplete: 'off' });
    var select = el('select', { id: 'market', 'aria-label': t('marketLabel'), disabled: cfg.marketFixed });
    cfg.markets.forEach(function (m) { select.appendChild(el('option', { value: m, selected: m === market, text: m })); });
    var list = el('ul', { className: 'providers', id: 'providers' });
    var note = el('p', { className: 'help', id: 'providers-note', text: t('loadingProviders') });
    var current = [];
    function refill() {
      var q = search.value.trim().toLowerCase();
      while (list.firstChild) list.removeChild(list.firstChild);
      var shown = current.filter(function (p) {
        return !q || [p.displayName, p.name, p.financialInstitutionName].some(function (s) { return typeof s === 'string' && s.toLowerCase().indexOf(q) >= 0; });
      });
      shown.forEach(function (p) {
        list.appendChild(el('li', null, [
          el('button', { type: 'button', className: 'provider', 'data-provider': p.name, onclick: function () { credentialsForm(p, true); } }, [
            el('span', null, [String(p.displayName || p.name), el('small', { text: p.displayDescription || '' })]),
            p.type === 'TEST' ? el('span', { className: 'badge', text: t('testBadge') }) : null,
          ]),
        ]));
      });
      note.textContent = shown.length ? '' : t('noProviders');
    }
    function load() {
      note.textContent = t('loadingProviders');
      current = [];
      refill();
      note.textContent = t('loadingProviders');
      loadProviders(market).then(function (l) { current = l; refill(); }, function (e) { note.textContent = t('networkError') + ' ' + (e && e.message ? e.message : ''); });
    }
    search.addEventListener('input', refill);
    select.addEventListener('change', function () { market = st.market = select.value; load(); });
    show('picker', [heading(t('pickerHeading')), el('div', { className: 'row' }, [select]), search, note, list]);
    load();
    search.focus();
  }

  // ---- fields (provider fields and supplemental fields alike) ----
  function fieldWidget(fd, initial) {
    var id = 'f' + ++st.seq;
    var name = String(fd.name);
    var label = String(fd.description || fd.name) + (fd.optional ? ' ' + t('optional') : '');
    var input, top;
    var help = fd.helpText ? el('p', { className: 'help', text: String(fd.helpText) }) : null;
    var err = el('p', { className: 'error', role: 'alert', id: id + '-error' });
    if (fd.checkbox) {
      input = el('input', { type: 'checkbox', id: id, name: name, disabled: !!fd.immutable });
      input.checked = String(initial) === 'true';
      var info = parseJsonValue(fd.additionalInfo);
      var extra = null;
      if (info && typeof info === 'object') {
        var bits = [info.accountType, info.balance !== undefined ? String(info.balance) + (info.currencyCode ? ' ' + info.currencyCode : '') : null, info.iban].filter(function (x) { return x !== null && x !== undefined && x !== ''; });
        if (info.accountName && !fd.description) label = String(info.accountName);
        if (bits.length) extra = el('p', { className: 'help', text: bits.map(String).join(' · ') });
      }
      top = el('label', { className: 'checkbox', for: id }, [input, el('span', { text: label })]);
      return { fd: fd, input: input, err: err, node: el('div', { className: 'field', 'data-field': name }, [top, extra, help, err]) };
    }
    input = el('input', {
      type: fd.masked ? 'password' : 'text',
      id: id,
      name: name,
      autocomplete: 'off',
      inputmode: fd.numeric ? 'numeric' : null,
      maxlength: positive(fd.maxLength) ? fd.maxLength : null,
      placeholder: fd.hint ? String(fd.hint) : null,
      readonly: !!fd.immutable,
      required: !fd.optional,
      'aria-describedby': id + '-error',
    });
    input.value = initial === undefined || initial === null ? '' : String(initial);
    top = el('label', { for: id, text: label });
    return { fd: fd, input: input, err: err, node: el('div', { className: 'field', 'data-field': name }, [top, input, help, err]) };
  }
  function valueOf(w) { return w.fd.checkbox ? (w.input.checked ? 'true' : 'false') : w.input.value; }
  function patternOk(p, v) {
    try { return new RegExp('^(?:' + p + ')$').test(v); } catch (e) { return true; }
  }
  function check(w) {
    var fd = w.fd, v = valueOf(w), msg = '';
    if (!fd.checkbox && !fd.immutable) {
      if (!v) { if (!fd.optional) msg = t('errRequired'); }
      else if (positive(fd.minLength) && v.length < fd.minLength) msg = t('errMinLength', { n: fd.minLength });
      else if (positive(fd.maxLength) && v.length > fd.maxLength) msg = t('errMaxLength', { n: fd.maxLength });
      else if (fd.numeric && !/^[0-9]+$/.test(v)) msg = t('errNumeric');
      else if (typeof fd.pattern === 'string' && fd.pattern && !patternOk(fd.pattern, v)) msg = fd.patternError ? String(fd.patternError) : t('errPattern');
    }
    w.err.textContent = msg;
    w.input.setAttribute('aria-invalid', msg ? 'true' : 'false');
    return !msg;
  }
  function checkAll(ws) {
    var ok = true, first = null;
    ws.forEach(function (w) { if (!check(w)) { ok = false; first = first || w; } });
    if (first) first.input.focus();
    return ok;
  }
  function values(ws) {
    var out = {};
    ws.forEach(function (w) { out[String(w.fd.name)] = valueOf(w); });
    return out;
  }

  // ---- credentials form ----
  function credentialsForm(p, fromPicker) {
    st.provider = p;
    var fields = Array.isArray(p.fields) ? p.fields.filter(function (f) { return f && typeof f.name === 'string'; }) : [];
    var ws = fields.map(function (fd) {
      return fieldWidget(fd, fd.name === 'username' && typeof cfg.username === 'string' ? cfg.username : fd.value);
    });
    var formError = el('p', { className: 'error', id: 'form-error', role: 'alert' });
    var submit = el('button', { type: 'submit', className: 'primary', id: 'submit', text: t('submit') });
    var form = el('form', { id: 'credentials-form', novalidate: true }, ws.map(function (w) { return w.node; }).concat([
      p.passwordHelpText ? el('p', { className: 'help', text: String(p.passwordHelpText) }) : null,
      formError,
      el('div', { className: 'row' }, [fromPicker ? el('button', { type: 'button', id: 'back', text: t('back'), onclick: picker }) : null, submit]),
    ]));
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      if (st.finished || !checkAll(ws)) return;
      submit.disabled = true;
      formError.textContent = '';
      api('POST', '/api/v1/credentials' + (cfg.optIn ? '?optIn=true' : ''), { providerName: p.name, fields: values(ws) }).then(function (r) {
        if (r.status === 200 && r.data && typeof r.data === 'object' && typeof r.data.id === 'string') {
          st.credentials = r.data;
          st.lastUpdated = st.lastStatus = null;
          onCredentials(r.data);
          poll(cfg.pollMinMs);
          return;
        }
        submit.disabled = false;
        if (r.status === 401) { fail('INTERNAL_ERROR'); return; }
        formError.textContent = errorText(r) || t('userMsgINTERNAL_ERROR');
      }, function () { submit.disabled = false; formError.textContent = t('networkError'); });
    });
    show('form', [heading(t('formHeading', { bank: bankName() })), p.displayDescription ? el('p', { className: 'help', text: String(p.displayDescription) }) : null, form]);
    var firstEmpty = ws.filter(function (w) { return !w.input.value && !w.input.readOnly; })[0];
    if (firstEmpty) firstEmpty.input.focus();
  }

  // ---- following the credentials status machine ----
  function poll(delay) {
    if (st.finished) return;
    clearTimeout(st.timer);
    st.timer = setTimeout(function () {
      api('GET', '/api/v1/credentials/' + encodeURIComponent(st.credentials.id)).then(function (r) {
        if (st.finished) return;
        if (r.status === 200 && r.data && typeof r.data === 'object') {
          st.failures = 0;
          var changed = onCredentials(r.data);
          poll(changed ? cfg.pollMinMs : Math.min(cfg.pollMaxMs, Math.round(delay * 1.5)));
        } else if (r.status === 401 || r.status === 404) {
          fail('INTERNAL_ERROR');
        } else {
          retry(delay);
        }
      }, function () { retry(delay); });
    }, delay);
  }
  function retry(delay) {
    if (st.finished) return;
    st.failures++;
    if (st.failures > 8) { finish('fail', { status: 'TEMPORARY_ERROR' }); return; }
    poll(Math.min(cfg.pollMaxMs, delay * 2));
  }
  function onCredentials(c) {
    st.credentials = c;
    if (c.statusUpdated === st.lastUpdated && c.status === st.lastStatus) return false;
    st.lastUpdated = c.statusUpdated;
    st.lastStatus = c.status;
    switch (c.status) {
      case 'UPDATED': statusScreen(c); complete(); break;
      case 'AUTHENTICATION_ERROR':
      case 'TEMPORARY_ERROR':
      case 'PERMANENT_ERROR':
      case 'SESSION_EXPIRED':
      case 'DELETED': statusScreen(c); fail(c.status); break;
      case 'AWAITING_SUPPLEMENTAL_INFORMATION': supplemental(c); break;
      case 'AWAITING_MOBILE_EID_AUTHENTICATION':
      case 'AWAITING_MOBILE_BANKID_AUTHENTICATION': eid(c); break;
      case 'AWAITING_THIRD_PARTY_APP_AUTHENTICATION': thirdParty(c); break;
      default: statusScreen(c);
    }
    return true;
  }
  function statusLine(status) {
    var key = 'status' + status;
    return el('div', { className: 'status' }, [el('span', { className: 'spinner', 'aria-hidden': 'true' }), el('span', { id: 'status', 'data-status': String(status), text: has(T, key) ? t(key) : t('statusOther') })]);
  }
  function statusScreen(c) {
    var payload = typeof c.statusPayload === 'string' && c.statusPayload && ['UPDATED', 'UPDATING'].indexOf(c.status) < 0 ? el('p', { className: 'help', id: 'status-payload', text: c.statusPayload }) : null;
    show('progress', [heading(t('progressHeading', { bank: bankName() })), statusLine(c.status), payload]);
  }
  function supplemental(c) {
    var list = parseJsonValue(c.supplementalInformation);
    if (!Array.isArray(list) || !list.length) { statusScreen(c); return; }
    var ws = list.filter(function (f) { return f && typeof f === 'object' && typeof f.name === 'string'; }).map(function (fd) { return fieldWidget(fd, fd.value); });
    var formError = el('p', { className: 'error', id: 'form-error', role: 'alert' });
    var submit = el('button', { type: 'submit', className: 'primary', id: 'submit', text: t('continue') });
    var form = el('form', { id: 'supplemental-form', novalidate: true }, ws.map(function (w) { return w.node; }).concat([formError, el('div', { className: 'row' }, [submit])]));
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      if (st.finished || !checkAll(ws)) return;
      submit.disabled = true;
      api('POST', '/api/v1/credentials/' + encodeURIComponent(c.id) + '/supplemental-information', { information: values(ws) }).then(function (r) {
        if (r.status >= 200 && r.status < 300) {
          if (st.lastStatus === 'AWAITING_SUPPLEMENTAL_INFORMATION' && st.lastUpdated === c.statusUpdated) show('progress', [heading(t('progressHeading', { bank: bankName() })), statusLine('AUTHENTICATING')]);
          poll(cfg.pollMinMs);
          return;
        }
        submit.disabled = false;
        formError.textContent = errorText(r) || t('userMsgINTERNAL_ERROR');
      }, function () { submit.disabled = false; formError.textContent = t('networkError'); });
    });
    show('supplemental', [heading(t('supplementalHeading')), form]);
    var firstEmpty = ws.filter(function (w) { return !w.fd.checkbox && !w.input.value && !w.input.readOnly; })[0];
    if (firstEmpty) firstEmpty.input.focus();
  }
  function qrImage(id) {
    var img = el('img', { className: 'qr', id: 'qr', alt: t('qrAlt'), hidden: true });
    api('GET', '/api/v1/credentials/' + encodeURIComponent(id) + '/qr').then(function (r) {
      var s = typeof r.text === 'string' ? r.text.trim() : '';
      if (r.status === 200 && s.length < 500000 && /^data:image\/png;base64,[A-Za-z0-9+\/]+={0,2}$/.test(s)) {
        img.src = s;
        img.hidden = false;
      }
    }, function () {});
    return img;
  }
  function eid(c) {
    var token = typeof c.supplementalInformation === 'string' ? c.supplementalInformation.trim() : '';
    var open = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(token)
      ? el('p', { className: 'links' }, [el('a', { id: 'eid-open', href: 'bankid:///?autostarttoken=' + encodeURIComponent(token) + '&redirect=null', text: t('eidOpenHere') })])
      : null;
    show('eid', [heading(t('eidHeading')), el('p', { text: t('eidScan') }), qrImage(c.id), open, statusLine(c.status)]);
  }
  function thirdParty(c) {
    var p = parseJsonValue(c.supplementalInformation);
    if (!p || typeof p !== 'object') p = {};
    var ios = p.ios && typeof p.ios === 'object' ? p.ios : {};
    var android = p.android && typeof p.android === 'object' ? p.android : {};
    var redirect = (st.provider && st.provider.authenticationFlow === 'REDIRECT') || ios.scheme === 'https';
    var main = safeUrl(ios.deepLinkUrl);
    var alt = safeUrl(android.intent);
    var store = safeUrl(ios.appStoreUrl);
    var links = [];
    if (main) links.push(el('a', { id: 'app-open', href: main, target: '_blank', rel: 'noopener noreferrer', text: redirect ? t('redirectOpen') : t('appOpen') }));
    if (alt && alt !== main) links.push(el('a', { id: 'app-open-android', href: alt, target: '_blank', rel: 'noopener noreferrer', text: t('appOpenAndroid') }));
    if (store && !redirect && /^https:/.test(store)) links.push(el('a', { id: 'app-store', href: store, target: '_blank', rel: 'noopener noreferrer', text: t('appStore') }));
    show('third-party', [
      heading(redirect ? t('redirectHeading') : t('appHeading')),
      p.downloadMessage && !redirect ? el('p', { className: 'help', text: String(p.downloadMessage) }) : null,
      redirect ? null : qrImage(c.id),
      el('div', { className: 'links' }, links),
      statusLine(c.status),
      el('p', { className: 'help', text: t('waitingForApp') }),
    ]);
  }

  if (st.provider) credentialsForm(st.provider, false);
  else picker();
})();`;
