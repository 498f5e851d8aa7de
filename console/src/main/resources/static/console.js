'use strict';
// The console's pages: each draws a JSON answer of /api; errors from the API are shown as they come (a sentence).
const page = document.getElementById('page');
let chart = null;
let refresh = null;

function esc(v) {
  return String(v ?? '').replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c]));
}
function time(ms) { return ms > 0 ? new Date(ms).toISOString().replace('T', ' ').replace('Z', '') : ''; }
function showError(message) {
  const box = document.getElementById('error');
  box.textContent = message; box.hidden = !message;
}
function notice(message) {
  const box = document.getElementById('notice');
  box.textContent = message; box.hidden = !message;
}
// who is signed in (null: nobody), the role, and the CSRF token every change carries
let session = {loginRequired: false, user: null, role: 'admin', csrf: ''};
async function api(path, options) {
  const headers = {'Content-Type': 'application/json', 'X-CSRF-Token': session.csrf};
  const response = await fetch('/api' + path, Object.assign({headers: headers}, options));
  const body = await response.json().catch(() => ({error: 'The console answered ' + response.status + '.'}));
  if (response.status === 401 && path !== '/login') { await loadSession(); showLogin(); }
  if (!response.ok) { throw new Error(body.error || ('HTTP ' + response.status)); }
  return body;
}
async function loadSession() {
  const response = await fetch('/api/session');
  session = await response.json();
  const who = document.getElementById('who');
  who.hidden = !session.user;
  document.getElementById('who-name').textContent = session.user ? session.user + ' (' + session.role + ')' : '';
  document.body.classList.toggle('read-only', session.role !== 'admin');
}
function showLogin() {
  if (refresh) { clearInterval(refresh); refresh = null; }
  page.innerHTML = '<h2>Sign in</h2><form id="login-form" class="login"><label>User <input name="user" id="login-user"'
    + ' autocomplete="username" required></label><label>Password <input name="password" id="login-password"'
    + ' type="password" autocomplete="current-password" required></label><button id="login-button">Sign in</button></form>';
  document.getElementById('login-form').onsubmit = async e => {
    e.preventDefault();
    const f = new FormData(e.target);
    if (await act(async () => { session = await api('/login', {method: 'POST', body: JSON.stringify(
      {user: f.get('user'), password: f.get('password')})}); })) {
      await loadSession();
      route();
    }
  };
}
function bytes(n) {
  if (n === null || n === undefined || n < 0) { return ''; }
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return (i === 0 ? n : n.toFixed(1)) + ' ' + units[i];
}
function duration(ms) {
  if (!(ms > 0)) { return ''; }
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600), m = Math.floor(s % 3600 / 60);
  return d > 0 ? d + ' d ' + h + ' h' : h > 0 ? h + ' h ' + m + ' min' : m > 0 ? m + ' min ' + (s % 60) + ' s' : s + ' s';
}
// how long the oldest waiting message waited ("3 min 12 s" under "oldest"); nothing when none waits (-1) or an older
// broker does not say (0)
function age(ms) { return ms > 0 ? (ms < 1000 ? ms + ' ms' : duration(ms)) : ''; }
function table(headers, rows, id) {
  return '<table' + (id ? ' id="' + id + '"' : '') + '><thead><tr>' + headers.map(h => '<th>' + esc(h) + '</th>').join('')
    + '</tr></thead><tbody>' + rows.map(r => '<tr>' + r.map(c => (typeof c === 'number'
      ? '<td class="num">' + c + '</td>' : '<td>' + c + '</td>')).join('') + '</tr>').join('') + '</tbody></table>';
}
function drawChart(canvasId, label, points) {
  const data = {labels: points.map(p => new Date(p.time).toLocaleTimeString()),
    datasets: [{label: label, data: points.map(p => p.value), borderColor: '#1f6feb', tension: 0.2, fill: false}]};
  if (chart && chart.canvas.id === canvasId) {
    chart.data = data; chart.update('none');
  } else {
    if (chart) { chart.destroy(); }
    chart = new Chart(document.getElementById(canvasId), {type: 'line', data: data,
      options: {animation: false, maintainAspectRatio: false, scales: {y: {beginAtZero: true}}}});
  }
  document.getElementById(canvasId).dataset.points = points.length;
  document.getElementById(canvasId).dataset.last = points.length ? points[points.length - 1].value : '';
}
function messageRows(list) {
  return list.map(m => [esc(m.msgId), esc(m.topic), esc(m.tags), esc(m.keys), esc(time(m.storeTimestamp)),
    m.bodySize, esc(m.contentType), '<a href="#message/' + encodeURIComponent(m.msgId) + '/' + encodeURIComponent(m.topic)
    + '">view</a>']);
}
const MESSAGE_HEADERS = ['id', 'topic', 'tags', 'keys', 'stored', 'bytes', 'type', ''];

const pages = {
  async cluster() {
    const c = await api('/cluster');
    document.getElementById('namesrv').textContent = 'NameServer ' + c.namesrv;
    page.innerHTML = '<h2>Brokers</h2>' + table(['cluster', 'broker', 'address', 'role', 'version', 'uptime',
      'commit log', 'disk free', 'disk used', 'dispatch behind', 'last store', 'problem'], c.brokers.map(b => {
      const s = b.status;
      const used = s && s.diskTotalBytes > 0 ? (100 * (s.diskTotalBytes - s.diskUsableBytes) / s.diskTotalBytes) : null;
      const level = used === null ? '' : used >= s.diskSpaceWarningLevelRatio ? 'disk-full'
        : used >= s.diskMaxUsedSpaceRatio ? 'disk-cleaning' : 'disk-ok';
      return [esc(b.cluster), esc(b.name + (b.id ? ' #' + b.id : '')), esc(b.address), esc(b.role), esc(s ? s.version : ''),
        esc(b.bootTimestamp ? duration(c.now - b.bootTimestamp) : ''), esc(bytes(b.commitLogBytes)),
        esc(s ? bytes(s.diskUsableBytes) + ' of ' + bytes(s.diskTotalBytes) : ''),
        used === null ? '' : '<span class="' + level + '" title="old files are deleted at once above '
          + s.diskMaxUsedSpaceRatio + ' %, writes are refused above ' + s.diskSpaceWarningLevelRatio + ' %">'
          + used.toFixed(1) + ' %</span><br><small>clean at ' + s.diskMaxUsedSpaceRatio + ' %, refuse at '
          + s.diskSpaceWarningLevelRatio + ' %</small>', esc(bytes(b.dispatchBehindBytes)),
        esc(time(b.lastStoreTimestamp)).replace(' ', '<br>'),
        esc([b.error, s && s.writeRefusal].filter(x => x).join('; '))];
    }), 'brokers')
      + '<h2>Held back</h2>' + table(['broker', 'scheduled (pending)', 'open transactions', 'check-backs sent'],
        c.brokers.filter(b => b.status).map(b => [esc(b.name + (b.id ? ' #' + b.id : '')),
          b.status.delayLevels.reduce((sum, l) => sum + l.pending, 0) + Math.max(0, b.status.timerPending),
          b.status.openTransactions, b.status.checkBacksSent]), 'held-back')
      + '<p><a href="#pending">Scheduled and half messages in detail</a></p>';
  },
  async pending() {
    const c = await api('/cluster');
    const brokers = c.brokers.filter(b => b.status);
    page.innerHTML = '<h2>Scheduled messages</h2><p>Messages waiting for their delay level or delivery time, per'
      + ' broker (a slave does not deliver, so it shows none).</p>'
      + brokers.map(b => '<h3>' + esc(b.name + (b.id ? ' #' + b.id : '')) + '</h3>' + table(['level', 'delay', 'pending',
        'oldest'], [...b.status.delayLevels.map(l => [l.level, esc(duration(l.delayMillis) || l.delayMillis + ' ms'),
          l.pending, esc(age(l.oldestAgeMillis))]),
          ['timer', 'delivery time', b.status.timerPending < 0 ? '' : b.status.timerPending,
            b.status.timerEarliestDue > 0 ? 'next due ' + esc(time(b.status.timerEarliestDue)) : '']],
        'scheduled-' + b.name + '-' + b.id) + '<p>' + b.status.scheduledDelivered + ' delivered since start.</p>').join('')
      + '<h2>Half messages (transactions)</h2>' + table(['broker', 'open transactions', 'oldest', 'check-backs sent',
        'check rounds'], brokers.map(b => [esc(b.name + (b.id ? ' #' + b.id : '')), b.status.openTransactions,
        esc(age(b.status.oldestOpenTransactionAgeMillis)), b.status.checkBacksSent, b.status.checkRounds]),
        'half-messages');
  },
  async topics() {
    const list = await api('/topics');
    page.innerHTML = '<h2>Topics</h2><form id="create-topic" class="admin-only">Topic <input name="topic" id="new-topic" required>'
      + ' queues <input name="queues" type="number" value="8" min="1" max="1024"> <button>Create</button></form>'
      + table(['topic', 'kind', ''], list.map(t => ['<a href="#topic/' + encodeURIComponent(t.name) + '">' + esc(t.name)
      + '</a>', '<span class="kind-' + esc(t.kind) + '">' + esc(t.kind) + '</span>', t.kind === 'user'
      ? '<button class="danger admin-only" data-delete="' + esc(t.name) + '">Delete</button>' : '']), 'topics');
    document.getElementById('create-topic').onsubmit = async e => {
      e.preventDefault();
      const f = new FormData(e.target);
      await act(() => api('/topics', {method: 'POST', body: JSON.stringify({topic: f.get('topic'),
        queues: Number(f.get('queues'))})}), 'Topic ' + f.get('topic') + ' created.') && route();
    };
    page.querySelectorAll('[data-delete]').forEach(b => b.onclick = async () => {
      const name = b.dataset.delete;
      const typed = prompt('Deleting topic ' + name + ' drops its queues. Type the topic name to confirm:');
      if (typed === null) { return; }
      await act(() => api('/topics/' + encodeURIComponent(name) + '?confirm=' + encodeURIComponent(typed),
        {method: 'DELETE'}), 'Topic ' + name + ' deleted.') && route();
    });
  },
  async topic(name) {
    const t = await api('/topics/' + encodeURIComponent(name));
    page.innerHTML = '<h2>Topic ' + esc(name) + '</h2><p>' + t.topic.queues + ' queue(s) on ' + esc(t.topic.brokers.join(', '))
      + '; <span id="topic-messages">' + t.messages + '</span> message(s) stored.</p>'
      + '<h3>Messages per second</h3><div class="chart"><canvas id="tps-chart"></canvas></div>';
    drawChart('tps-chart', 'msg/s', t.rate);
    refresh = setInterval(async () => {
      const u = await api('/topics/' + encodeURIComponent(name));
      document.getElementById('topic-messages').textContent = u.messages;
      drawChart('tps-chart', 'msg/s', u.rate);
    }, Math.min(5000, t.sampleIntervalMillis));
  },
  async groups() {
    const list = await api('/groups');
    page.innerHTML = '<h2>Consumer groups</h2>' + table(['group'], list.map(g => ['<a href="#group/'
      + encodeURIComponent(g) + '">' + esc(g) + '</a>']), 'groups');
  },
  async group(name) {
    const g = await api('/groups/' + encodeURIComponent(name));
    // the group's own topics first: its retry topic is rarely what an operator resets
    const topics = [...new Set(g.queues.map(q => q.topic))].sort((a, b) =>
      (a.startsWith('%RETRY%') - b.startsWith('%RETRY%')) || a.localeCompare(b));
    page.innerHTML = '<h2>Group ' + esc(name) + '</h2><p>Lag: <b id="group-lag">' + g.lag + '</b> message(s)</p>'
      + table(['topic', 'broker', 'queue', 'broker offset', 'consumer offset', 'lag', 'last consumed'], g.queues.map(q =>
        [esc(q.topic), esc(q.broker), q.queueId, q.brokerOffset, q.consumerOffset, q.lag, esc(time(q.lastTimestamp))]), 'lag-table')
      + '<h3>Lag</h3><div class="chart"><canvas id="lag-chart"></canvas></div>'
      + '<h3 class="admin-only">Reset offsets</h3><form id="reset" class="admin-only">Topic <select name="topic" id="reset-topic">' + topics.map(t => '<option>' + esc(t)
      + '</option>').join('') + '</select> to <input name="to" id="reset-to" value="earliest" size="26"'
      + ' title="earliest, latest, 2026-11-29T10:00:00Z or epoch milliseconds"> <button class="danger">Reset</button></form>';
    drawChart('lag-chart', 'lag', g.lagHistory);
    document.getElementById('reset').onsubmit = async e => {
      e.preventDefault();
      const f = new FormData(e.target);
      const typed = prompt('Reset the offsets of ' + name + ' on ' + f.get('topic') + ' to ' + f.get('to')
        + '? Type the group name to confirm:');
      if (typed === null) { return; }
      await act(() => api('/groups/' + encodeURIComponent(name) + '/reset', {method: 'POST', body: JSON.stringify(
        {topic: f.get('topic'), to: f.get('to'), confirm: typed})}), 'Offsets of ' + name + ' reset.') && route();
    };
  },
  async messages() {
    page.innerHTML = '<h2>Messages</h2>'
      + '<form id="by-key">Topic <input name="topic" id="key-topic" required> key <input name="key" id="key" required>'
      + ' <button>Find by key</button></form>'
      + '<form id="by-id">Message id <input name="id" id="msg-id" size="40" required> topic (for a producer id)'
      + ' <input name="topic"> <button>Find by id</button></form>'
      + '<form id="by-time">Topic <input name="topic" required> from <input name="from" placeholder="2026-11-29T10:00:00Z"'
      + ' required> to <input name="to" required> <button>Find by time</button></form><div id="results"></div>';
    const show = list => document.getElementById('results').innerHTML = list.length
      ? table(MESSAGE_HEADERS, messageRows(list), 'found') : '<p id="found-none">No message found.</p>';
    document.getElementById('by-key').onsubmit = async e => {
      e.preventDefault();
      const f = new FormData(e.target);
      await act(async () => show(await api('/messages?topic=' + encodeURIComponent(f.get('topic')) + '&key='
        + encodeURIComponent(f.get('key')))));
    };
    document.getElementById('by-id').onsubmit = async e => {
      e.preventDefault();
      const f = new FormData(e.target);
      location.hash = '#message/' + encodeURIComponent(f.get('id').trim()) + '/' + encodeURIComponent(f.get('topic'));
    };
    document.getElementById('by-time').onsubmit = async e => {
      e.preventDefault();
      const f = new FormData(e.target);
      await act(async () => show(await api('/messages/range?topic=' + encodeURIComponent(f.get('topic')) + '&from='
        + encodeURIComponent(f.get('from')) + '&to=' + encodeURIComponent(f.get('to')))));
    };
  },
  async message(id, topic) {
    const q = topic ? '?topic=' + encodeURIComponent(topic) : '';
    const t = await api('/messages/trace' + q + (q ? '&' : '?') + 'id=' + encodeURIComponent(id));
    const m = t.message;
    page.innerHTML = '<h2>Message ' + esc(m.msgId) + '</h2>' + table(['', ''], [['topic', esc(m.topic)],
      ['broker / queue / offset', esc(m.broker) + ' / ' + m.queueId + ' / ' + m.queueOffset], ['tags', esc(m.tags)],
      ['keys', esc(m.keys)], ['born', esc(time(m.bornTimestamp)) + ' ' + esc(m.bornHost)],
      ['stored', esc(time(m.storeTimestamp)) + ' ' + esc(m.storeHost)], ['broker id', esc(m.offsetMsgId)],
      ['retries', m.reconsumeTimes], ['content type', esc(m.contentType)], ['size', m.bodySize + ' bytes']])
      + '<h3>Body</h3><pre class="body" id="body">' + esc(m.bodyPreview) + '</pre>'
      + '<h3>Trace</h3>' + table(['step', 'when', 'detail'], t.steps.map(s => [esc(s.step), esc(time(s.time)),
        esc(s.detail)]), 'trace')
      + '<h3>Properties</h3>' + table(['name', 'value'], Object.entries(m.properties).map(([k, v]) => [esc(k), esc(v)]));
  },
  async dlq(group) {
    page.innerHTML = '<h2>Dead letters</h2><form id="dlq-group">Group <input name="group" id="dlq-group-name" value="'
      + esc(group || '') + '" required> <button>Show</button></form><div id="letters"></div>';
    document.getElementById('dlq-group').onsubmit = e => {
      e.preventDefault();
      location.hash = '#dlq/' + encodeURIComponent(new FormData(e.target).get('group'));
    };
    if (!group) { return; }
    const list = await api('/dlq/' + encodeURIComponent(group));
    const resend = async (body, what) => {
      const typed = prompt('Resend ' + what + ' of ' + group + ' to their topics? Type the group name to confirm:');
      if (typed === null) { return; }
      body.confirm = typed;
      await act(() => api('/dlq/' + encodeURIComponent(group) + '/resend', {method: 'POST', body: JSON.stringify(body)}),
        'Resent.') && route();
    };
    document.getElementById('letters').innerHTML = (list.length ? '<p><button class="danger admin-only" id="resend-all">Resend all ('
      + list.length + ')</button></p>' + table([...MESSAGE_HEADERS, ''], messageRows(list).map((r, i) => [...r,
        '<button class="danger admin-only" data-resend="' + esc(list[i].msgId) + '">Resend</button>']), 'letters-table')
      : '<p id="no-letters">No dead letter waiting.</p>');
    const all = document.getElementById('resend-all');
    if (all) { all.onclick = () => resend({all: true}, 'all ' + list.length + ' dead letters'); }
    page.querySelectorAll('[data-resend]').forEach(b => b.onclick = () => resend({msgId: b.dataset.resend},
      'dead letter ' + b.dataset.resend));
  },
};

// true when the action went through; a refused one leaves its sentence on the page (no redraw that would clear it)
async function act(action, done) {
  try {
    await action();
    showError('');
    if (done) { notice(done); }
    return true;
  } catch (e) {
    notice('');
    showError(e.message);
    return false;
  }
}

async function route() {
  if (refresh) { clearInterval(refresh); refresh = null; }
  const parts = (location.hash || '#cluster').substring(1).split('/').map(decodeURIComponent);
  const name = parts[0] in pages ? parts[0] : 'cluster';
  document.querySelectorAll('nav a').forEach(a => a.classList.toggle('active',
    a.getAttribute('href') === '#' + name || (name === 'topic' && a.id === 'nav-topics')
    || (name === 'group' && a.id === 'nav-groups') || (name === 'message' && a.id === 'nav-messages')));
  showError('');
  if (session.loginRequired && !session.user) { showLogin(); return; }
  try {
    await pages[name](...parts.slice(1).filter(p => p !== ''));
  } catch (e) {
    showError(e.message);
  }
}
window.addEventListener('hashchange', () => { notice(''); route(); });
document.getElementById('logout').onclick = async () => {
  await act(() => api('/logout', {method: 'POST'}), 'Signed out.');
  await loadSession();
  route();
};
loadSession().then(route, e => showError('The console does not answer: ' + e.message));
