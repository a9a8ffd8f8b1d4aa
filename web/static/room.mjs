// Meeting friends through public relays (Trystero over Nostr): the entry point that
// tools/site/build.py bundles into static/room.js with esbuild. web/static/p2p.js loads it
// only when the person opts in (a table shared by code or link), so nothing else on the
// page talks to a relay.
// @ts-check
import {getRelaySockets, joinRoom, selfId} from 'trystero/nostr'

const APP = 'hearts-table-v2'

// config: {relays: [url], room, password, iceServers}; on: {open(peer), message(peer,
// text), close(peer)}. Returns {send(peer, text), leave(), reachable(), settled()}:
// reachable() says whether a socket to one of the room's relays is open now; settled()
// resolves true once one is, false once every one has closed (refused, unreachable).
/**
 * @param {{relays: string[], room: string, password: string, iceServers: RTCIceServer[]}} config
 * @param {{open: (peer: string) => void, message: (peer: string, text: string) => void,
 *          close: (peer: string) => void, error: (text: string) => void}} on
 * @returns {Meeting}
 */
export function meet (config, on) {
  const room = joinRoom({
    appId: APP,
    password: config.password,
    relayConfig: {urls: config.relays, redundancy: Math.min(config.relays.length, 3)},
    rtcConfig: {iceServers: config.iceServers}
  }, config.room, {onJoinError: details => on.error(String(details.error))})
  const wire = room.makeAction('hearts')
  wire.onMessage = (/** @type {unknown} */ data, /** @type {{peerId: string}} */ context) => {
    if (typeof data === 'string') on.message(context.peerId, data)
  }
  room.onPeerJoin = peer => on.open(peer)
  room.onPeerLeave = peer => on.close(peer)
  const wanted = config.relays.map(url => url.replace(/\/+$/, ''))
  const sockets = () => Object.values(getRelaySockets()).filter(socket => socket &&
    wanted.includes(String(socket.url).replace(/\/+$/, '')))
  const reachable = () => sockets().some(socket => socket.readyState === 1)
  return {
    self: selfId,
    send: (peer, text) => { wire.send(text, {target: peer}).catch(() => {}) },
    leave: () => room.leave(),
    reachable,
    // on the sockets' own events, not a timer: no use waiting out the relays' time once
    // each has refused (a socket that opens again later is waited for by the caller)
    settled: () => new Promise(resolve => {
      const check = () => {
        const now = sockets()
        if (now.some(socket => socket.readyState === 1)) resolve(true)
        else if (now.length >= wanted.length && now.every(socket => socket.readyState === 3)) resolve(false)
      }
      for (const socket of sockets()) {
        for (const type of ['open', 'close', 'error']) socket.addEventListener(type, check)
      }
      check()
    })
  }
}

// The relay lobby's wire (NIP-01 events, no WebRTC), bundled into the same file.
export {lobbyWire} from './relays.mjs'
