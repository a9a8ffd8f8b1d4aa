// A small Nostr relay (NIP-01) for the browser tests: online tables meet through it
// instead of the public relays. It keeps no events (the ones used to meet are ephemeral,
// kinds 20000-29999), answers EVENT with OK and passes each event on to every
// subscription whose filter matches (ids, authors, kinds, since, until, #tag).
//   node e2e/nostr_relay.mjs PORT      prints "listening PORT" once it accepts connections
import {WebSocketServer} from 'ws'

const port = Number(process.argv[2] || 0)
const server = new WebSocketServer({host: '127.0.0.1', port})
const subs = new Map()  // socket -> Map(subscription id -> filters)

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
      for (const [peer, mine] of subs) for (const [id, filters] of mine)
        if (filters.some(f => matches(f, event)))
          peer.send(JSON.stringify(['EVENT', id, event]))
    } else if (type === 'REQ') {
      const [id, ...filters] = rest
      subs.get(socket)?.set(id, filters.filter(f => f && typeof f === 'object'))
      socket.send(JSON.stringify(['EOSE', id]))
    } else if (type === 'CLOSE') {
      subs.get(socket)?.delete(rest[0])
    }
  })
})
server.on('listening', () => console.log(`listening ${server.address().port}`))
