// The relay lobby's wire (protocol v4, docs/protocol.md): this page's own Nostr key, and
// NIP-01 REQ/EVENT/CLOSE to the relays the page names for online play, over WebSocket.
// web/static/room.mjs re-exports it, so tools/site/build.py bundles it into static/room.js
// with the Schnorr library Trystero already signs with (@noble/secp256k1, pinned in
// package-lock.json): no new dependency.
//
// What the page's Python (web/friends/looking.py, lobby_door.py) gets from here is checked
// first: an event comes through only if its id is the hash of what it says and its
// signature is its key's (BIP-340 Schnorr), and a note addressed to this page is decrypted
// (NIP-04: AES-256-CBC with the ECDH secret of the two keys) or comes with no plain text.
// Python then checks shape, sizes, floods, replays and seats (lobby_events.read_event and
// the Looker), so a forged event never reaches the rules and a well-signed lie meets them.
// @ts-check
import {getSharedSecret, schnorr} from '@noble/secp256k1'

const NOTE = 20440  // the lobby's notes: encrypted to the one key in their "p" tag
const MAX_FRAME = 4096  // longer relay messages are dropped unread (a lobby event is < 2 KB)

/** @typedef {{id: string, pubkey: string, created_at: number, kind: number,
 *             tags: string[][], content: string, sig: string}} NostrEvent */

/** @param {Uint8Array} bytes */
const hex = bytes => Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('')
/** @param {string} text */
const unhex = text => Uint8Array.from(text.match(/../g) || [], b => parseInt(b, 16))
/** @param {Uint8Array} bytes */
const base64 = bytes => btoa(String.fromCharCode(...bytes))
/** @param {string} text */
const unbase64 = text => Uint8Array.from(atob(text), c => c.charCodeAt(0))

/** NIP-01's id: SHA-256 of [0, pubkey, created_at, kind, tags, content] as JSON.
 * @param {Omit<NostrEvent, 'id' | 'sig'>} event */
export async function eventId (event) {
  const text = JSON.stringify([0, event.pubkey, event.created_at, event.kind, event.tags,
    event.content])
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256',
    new TextEncoder().encode(text))))
}

/** Whether an event from a relay is what it says: its fields of the right types, its id the
 * hash of them, its signature its key's. Never throws.
 * @param {unknown} event @returns {Promise<boolean>} */
export async function authentic (event) {
  if (!event || typeof event !== 'object') return false
  const e = /** @type {Record<string, unknown>} */ (event)
  const hex64 = /^[0-9a-f]{64}$/
  if (typeof e.id !== 'string' || !hex64.test(e.id) || typeof e.pubkey !== 'string' ||
      !hex64.test(e.pubkey) || typeof e.sig !== 'string' || !/^[0-9a-f]{128}$/.test(e.sig) ||
      !Number.isSafeInteger(e.created_at) || !Number.isSafeInteger(e.kind) ||
      typeof e.content !== 'string' || !Array.isArray(e.tags) ||
      !e.tags.every(tag => Array.isArray(tag) && tag.every(part => typeof part === 'string'))) {
    return false
  }
  const event_ = /** @type {NostrEvent} */ (event)
  try {
    return await eventId(event_) === event_.id &&
      await schnorr.verifyAsync(unhex(event_.sig), unhex(event_.id), unhex(event_.pubkey))
  } catch {
    return false
  }
}

/** The AES key two lobby keys share (NIP-04: the x of the ECDH point).
 * @param {Uint8Array} secret @param {string} other @param {KeyUsage} use */
function shared (secret, other, use) {
  const x = getSharedSecret(secret, unhex('02' + other)).slice(1, 33)
  return crypto.subtle.importKey('raw', x, {name: 'AES-CBC'}, false, [use])
}

/** A fresh key for this page's time in the lobby (never stored: a page that looks again is
 * a new stranger). */
export function lobbyKey () {
  const {secretKey, publicKey} = schnorr.keygen()
  return {secret: secretKey, pubkey: hex(publicKey)}
}

/** @param {{secret: Uint8Array, pubkey: string}} key @param {number} kind
 * @param {string[][]} tags @param {string} content @param {number} createdAt seconds
 * @returns {Promise<NostrEvent>} */
export async function signed (key, kind, tags, content, createdAt) {
  const unsigned = {pubkey: key.pubkey, created_at: createdAt, kind, tags, content}
  const id = await eventId(unsigned)
  return {...unsigned, id, sig: hex(await schnorr.signAsync(unhex(id), key.secret))}
}

/** NIP-04: ``base64(ciphertext)?iv=base64(iv)``.
 * @param {Uint8Array} secret @param {string} to @param {string} text */
export async function encrypt (secret, to, text) {
  const iv = crypto.getRandomValues(new Uint8Array(16))
  const sealed = await crypto.subtle.encrypt({name: 'AES-CBC', iv},
    await shared(secret, to, 'encrypt'), new TextEncoder().encode(text))
  return base64(new Uint8Array(sealed)) + '?iv=' + base64(iv)
}

/** The plain text of a note from ``from``, or null if it isn't one sealed to this key.
 * @param {Uint8Array} secret @param {string} from @param {string} content */
export async function decrypt (secret, from, content) {
  const parts = content.split('?iv=')
  if (parts.length !== 2 || content.length > 1024) return null
  try {
    const plain = await crypto.subtle.decrypt({name: 'AES-CBC', iv: unbase64(parts[1])},
      await shared(secret, from, 'decrypt'), unbase64(parts[0]))
    return new TextDecoder('utf-8', {fatal: true}).decode(plain)
  } catch {
    return null
  }
}

/**
 * Talk to the lobby's relays as this page's key. ``on.event(sub, event, plain)``: an
 * authentic event of subscription ``sub`` (``plain``: a note to this page, decrypted, else
 * null), each event once whichever relay brought it; ``on.stored(sub)``: every relay that
 * answered has sent its stored events (EOSE).
 * @param {{relays: string[], key?: {secret: Uint8Array, pubkey: string},
 *          WebSocket?: typeof WebSocket}} config
 * @param {{event: (sub: string, event: NostrEvent, plain: string | null) => void,
 *          stored: (sub: string) => void}} on
 */
export function lobbyWire (config, on) {
  const key = config.key || lobbyKey()
  const Socket = config.WebSocket || WebSocket
  /** @type {Map<string, unknown[]>} */
  const subs = new Map()  // name -> filters, sent again to a relay that reconnects
  /** @type {Map<string, Set<string>>} */
  const ended = new Map()  // name -> the relays that sent its EOSE
  const once = new Set()  // one-shot queries: closed as sent, read until every relay's EOSE
  const seen = new Set()  // event ids already handed on (the relays repeat each other)
  let closed = false
  /** @type {Map<string, WebSocket>} */
  const sockets = new Map()
  /** @type {Map<string, string[]>} */
  const waiting = new Map()  // relay -> messages sent while its socket was still opening
  let sent = 0  // events this page sent (tests count a seated page's)

  /** @param {string} url */
  function open (url) {
    const socket = new Socket(url)
    sockets.set(url, socket)
    socket.onopen = () => {
      for (const [name, filters] of subs) {
        if (once.has(name) && ended.get(name)?.has(url)) continue  // answered already
        socket.send(JSON.stringify(['REQ', name, ...filters]))
      }
      for (const text of waiting.get(url) || []) if (text.startsWith('["EVENT"')) socket.send(text)
      waiting.delete(url)
    }
    // one message after another, as the relay sent them (a signature is checked
    // asynchronously, and EOSE must come after the stored events it ends)
    let inOrder = Promise.resolve()
    socket.onmessage = message => {
      if (typeof message.data !== 'string' || message.data.length > MAX_FRAME) return
      const data = message.data
      inOrder = inOrder.then(() => received(url, data)).catch(() => {})
    }
    socket.onclose = () => {
      if (closed || sockets.get(url) !== socket) return
      setTimeout(() => { if (!closed && sockets.get(url) === socket) open(url) }, 3000)
    }
    socket.onerror = () => {}
  }

  /** @param {string} url @param {string} data */
  async function received (url, data) {
    let message
    try { message = JSON.parse(data) } catch { return }
    if (!Array.isArray(message)) return
    const [type, name, event] = message
    if (typeof name !== 'string' || !subs.has(name)) return
    if (type === 'EOSE') {
      // a one-shot query is closed once answered (not as it is sent: a relay that runs
      // queries apart from the socket's messages would cancel it unanswered)
      if (once.has(name) && sockets.get(url)?.readyState === 1) {
        sockets.get(url)?.send(JSON.stringify(['CLOSE', name]))
      }
      const relays = ended.get(name) || new Set()
      ended.set(name, relays.add(url))
      if (relays.size === 1) on.stored(name)  // the first relay's answer: don't wait for slow ones
      if (once.has(name) && relays.size >= sockets.size) { subs.delete(name); once.delete(name) }
      return
    }
    if (type !== 'EVENT' || !event || seen.has(event.id) || !await authentic(event)) return
    if (seen.has(event.id) || !subs.has(name)) return
    seen.add(event.id)
    if (seen.size > 20000) seen.clear()
    const toMe = event.kind === NOTE &&
      event.tags.some((/** @type {string[]} */ tag) => tag[0] === 'p' && tag[1] === key.pubkey)
    on.event(name, event, toMe ? await decrypt(key.secret, event.pubkey, event.content) : null)
  }

  /** @param {unknown[]} message */
  function broadcast (message) {
    const text = JSON.stringify(message)
    for (const [url, socket] of sockets) {
      if (socket.readyState === 1) socket.send(text)
      else if (socket.readyState === 0) waiting.set(url, [...(waiting.get(url) || []), text])
    }
  }

  for (const url of config.relays) open(url)
  return {
    pubkey: key.pubkey,
    /** Sign and send an event (``to``: encrypt the content to that key, tag it ``p``);
     * its id. @param {number} kind @param {string[][]} tags @param {string} content
     * @param {string | null} to @param {number} createdAt seconds */
    async publish (kind, tags, content, to, createdAt) {
      const body = to ? await encrypt(key.secret, to, content) : content
      const event = await signed(key, kind, to ? [...tags, ['p', to]] : tags, body, createdAt)
      sent += 1
      broadcast(['EVENT', event])
      return event.id
    },
    /** Open (or replace) subscription ``name``; ``oneShot``: close it at each relay once
     * that relay sent its stored events (EOSE); its filters' ``until`` keeps what comes
     * live meanwhile to events that claim to be older than the query (none, honestly).
     * @param {string} name @param {unknown[]} filters @param {boolean} [oneShot] */
    subscribe (name, filters, oneShot = false) {
      subs.set(name, filters)
      ended.delete(name)
      broadcast(['REQ', name, ...filters])
      if (oneShot) {
        once.add(name)
      } else {
        once.delete(name)
      }
    },
    /** @param {string} name */
    unsubscribe (name) {
      once.delete(name)
      if (subs.delete(name)) broadcast(['CLOSE', name])
    },
    /** Whether a socket to one of the relays is open now. */
    reachable: () => Array.from(sockets.values()).some(socket => socket.readyState === 1),
    /** Resolves true once a socket to a relay is open, false once every one has closed
     * (refused, unreachable), on the sockets' own events: no use waiting out a timer then. */
    settled: () => new Promise(resolve => {
      const check = () => {
        const all = Array.from(sockets.values())
        if (all.some(socket => socket.readyState === 1)) resolve(true)
        else if (all.length > 0 && all.every(socket => socket.readyState === 3)) resolve(false)
      }
      for (const socket of sockets.values()) {
        for (const type of ['open', 'close', 'error']) socket.addEventListener(type, check)
      }
      check()
    }),
    /** Events this page has sent since it came. */
    sent: () => sent,
    close () {
      closed = true
      for (const socket of sockets.values()) socket.close()
      sockets.clear()
    }
  }
}
