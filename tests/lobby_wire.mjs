// Drives web/static/relays.mjs (the relay lobby's wire) in Node against a relay on
// 127.0.0.1:PORT for tests/test_lobby_wire.py: two honest pages, a stranger forging
// events, one note sealed to the first page. Prints one JSON line of what each page got.
//   node tests/lobby_wire.mjs PORT
import WebSocket from 'ws'
import {decrypt, lobbyKey, lobbyWire, signed} from '../web/static/relays.mjs'

const url = `ws://127.0.0.1:${process.argv[2]}`
const TAG = 'hearts-v4-0-0'
const until = async (test, ms = 20000) => {
  for (let waited = 0; !test() && waited < ms; waited += 20) await new Promise(r => setTimeout(r, 20))
}
const got = {a: [], d: []}
const stored = new Set()
const wire = (name, key) => lobbyWire({relays: [url], key, WebSocket}, {
  event: (sub, event, plain) => got[name]?.push({sub, event, plain}),
  stored: sub => stored.add(`${name}:${sub}`)
})
const a = wire('a')
const b = wire('b')
const eve = lobbyKey()
const d = wire('d')  // a third page reading the first page's notes
a.subscribe('live', [{kinds: [30440], '#t': [TAG]}])
a.subscribe('notes', [{kinds: [20440], '#p': [a.pubkey]}])
d.subscribe('spy', [{kinds: [20440], '#p': [a.pubkey]}])
await until(() => stored.size === 3)

// the stranger: a LOOK of its own, then three forgeries of it
const now = Math.floor(Date.now() / 1000)
const honest = await signed(eve, 30440, [['d', 'look'], ['t', TAG]], '{"v":4,"came":1}', now)
const other = await signed(lobbyKey(), 30440, [['d', 'look'], ['t', TAG]], '{"v":4,"came":1}', now)
const forged = [
  {...honest, content: '{"v":4,"came":2}'},  // changed after signing: id isn't its hash
  {...honest, sig: other.sig},  // another key's signature
  {...honest, id: other.id},  // someone else's id
  {...honest, created_at: String(now)},  // wrong types
  {...honest, tags: [['t', TAG, 5]]}
]
const stranger = new WebSocket(url)
await new Promise(resolve => stranger.on('open', resolve))
for (const event of forged) stranger.send(JSON.stringify(['EVENT', event]))
stranger.send(JSON.stringify(['EVENT', honest]))
stranger.send(JSON.stringify(['EVENT', honest]))  // replayed: handed on once

const look = await b.publish(30440, [['d', 'look'], ['t', TAG]], '{"v":4,"came":7}', null, now)
const invite = '{"v":4,"t":"invite","table":"abcd1234","look":"x"}'
await b.publish(20440, [], invite, a.pubkey, now)
await until(() => got.a.length >= 3)
await new Promise(r => setTimeout(r, 300))  // any forgery still being checked lands too
// withdrawn (replaced under the same "d"), then read by a page that comes later
await b.publish(30440, [['d', 'look'], ['t', TAG]], '{"v":4,"gone":1}', null, now + 1)
await until(() => got.a.some(item => item.event.content.includes('gone')))
got.late = []
const late = wire('late')
late.subscribe('probe', [{kinds: [30440], '#t': [TAG], limit: 5}], true)  // one-shot
await until(() => stored.has('late:probe'))
// nothing live comes on a one-shot query
await b.publish(30440, [['d', 'look'], ['t', TAG]], '{"v":4,"came":9}', null, now + 2)
await until(() => got.a.some(item => item.event.content.includes('"came":9')))
const note = got.d[0]?.event
console.log(JSON.stringify({
  a: got.a, d: got.d, late: got.late, look, b: b.pubkey, eve: eve.pubkey, sent: b.sent(),
  eve_reads_note: note ? await decrypt(eve.secret, b.pubkey, note.content) : 'none'
}))
for (const w of [a, b, d, late]) w.close()
stranger.close()
