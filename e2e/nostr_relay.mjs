// A small Nostr relay (NIP-01) for the browser tests: online tables meet through it
// instead of the public relays. It answers EVENT with OK and passes each event on to every
// subscription whose filter matches (ids, authors, kinds, since, until, #tag); it keeps
// only addressable events (kinds 30000-39999: the relay lobby's LOOKs and DOORs), the
// newest per key, kind and "d" tag, and answers a REQ with those that match (newest first,
// at most "limit"), then EOSE; a stored event past its NIP-40 "expiration" is no longer
// answered (a table's sign left by a closed tab). It checks no signature
// (tests/test_lobby_real_relay.py uses a real relay for that).
//   node e2e/nostr_relay.mjs PORT      prints "listening PORT" once it accepts connections
import {WebSocketServer} from 'ws'

const port = Number(process.argv[2] || 0)
const server = new WebSocketServer({host: '127.0.0.1', port})
const subs = new Map()  // socket -> Map(subscription id -> filters)
const stored = new Map()  // "pubkey:kind:d" -> the newest addressable event there

const expired = e => {
  const tag = e.tags.find(t => Array.isArray(t) && t[0] === 'expiration')
  return tag !== undefined && Number(tag[1]) <= Date.now() / 1000
}

const matches = (f, e) =>
  (!f.ids || f.ids.includes(e.id)) &&
  (!f.authors || f.authors.includes(e.pubkey)) &&
  (!f.kinds || f.kinds.includes(e.kind)) &&
  (f.since === undefined || e.created_at >= f.since) &&
  (f.until === undefined || e.created_at <= f.until) &&
  Object.entries(f).every(([key, values]) => !key.startsWith('#') ||
    e.tags.some(t => t[0] === key.slice(1) && values.includes(t[1])))

server.on('connection', socket => {
  subs.set(socket, new Map())
  socket.on('close', () => subs.delete(socket))
  socket.on('message', data => {
    let msg
    try { msg = JSON.parse(data) } catch { return }
    if (!Array.isArray(msg)) return
    const [type, ...rest] = msg
    if (type === 'EVENT') {
      const event = rest[0]
      if (!event || typeof event !== 'object' || !Array.isArray(event.tags)) return
      socket.send(JSON.stringify(['OK', event.id, true, '']))
      if (event.kind >= 30000 && event.kind < 40000) {
        const place = `${event.pubkey}:${event.kind}:${(event.tags.find(t => Array.isArray(t) && t[0] === 'd') || [])[1] || ''}`
        const old = stored.get(place)
        if (old && old.created_at > event.created_at) return
        stored.set(place, event)
      }
      for (const [peer, mine] of subs) for (const [id, filters] of mine)
        if (filters.some(f => matches(f, event)))
          peer.send(JSON.stringify(['EVENT', id, event]))
    } else if (type === 'REQ') {
      const [id, ...filters] = rest
      const wanted = filters.filter(f => f && typeof f === 'object')
      subs.get(socket)?.set(id, wanted)
      for (const f of wanted) {
        const found = [...stored.values()].filter(e => matches(f, e) && !expired(e))
          .sort((a, b) => b.created_at - a.created_at).slice(0, f.limit ?? Infinity)
        for (const e of found) socket.send(JSON.stringify(['EVENT', id, e]))
      }
      socket.send(JSON.stringify(['EOSE', id]))
    } else if (type === 'CLOSE') {
      subs.get(socket)?.delete(rest[0])
    }
  })
})
server.on('listening', () => console.log(`listening ${server.address().port}`))
