// WebRTC for private tables (web/friends/ drives it): one RTCPeerConnection and one data
// channel per guest, signalled by hand with codes (web/p2p/codes.py). No server is involved.
// Every call returns plain strings; failures come back as {error} rather than being thrown
// or logged, so Python decides what the person reads.
// @ts-check
(function () {
  "use strict";
  /** A connection: a data channel of its own (pc, channel) or a peer in a room (room).
   * @typedef {{pc?: RTCPeerConnection, channel?: RTCDataChannel | null, room?: string,
   *            ended: boolean}} Peer */
  /** @type {Map<string, Peer>} */
  var peers = new Map();
  var nextId = 1;
  var nothing = function () {};
  /** @type {{open: (id: string) => void, message: (id: string, text: string) => void,
   *          close: (id: string) => void, leave: () => void}} */
  var handlers = { open: nothing, message: nothing, close: nothing, leave: nothing };
  /** @type {Map<string, Meeting>} */
  var rooms = new Map();
  /** @type {Map<string, Promise<void>>} */
  var leaving = new Map();  // room name -> the promise of its leaving
  var RELAY_WAIT_MS = 8000;  // how long meet waits for a slow relay's socket to open
  // Relay events, no WebRTC (web/static/relays.mjs, in room.js): Play online's lobby
  // ("lobby") and the sign of a table shared by code ("sign"), one wire of each name at a
  // time, each with a key of its own; its events go to its handlers, checked first.
  /** @typedef {ReturnType<typeof import("./relays.mjs").lobbyWire>} Wire */
  /** @typedef {{event: (sub: string, event: string, plain: string | null) => void,
   *             stored: (sub: string) => void}} WireHandlers */
  /** @type {Map<string, Wire>} */
  var wires = new Map();
  /** @type {Map<string, WireHandlers>} */
  var wireHandlers = new Map();
  /** @param {string | undefined} name @returns {string} */
  function wireName(name) { return name || "lobby"; }
  /** @param {string} name @returns {WireHandlers} */
  function handlersOf(name) {
    return wireHandlers.get(name) || { event: nothing, stored: nothing };
  }

  /** @param {RTCPeerConnection} pc @param {number} ms @returns {Promise<void>} */
  function gathered(pc, ms) {
    return new Promise(function (/** @type {(value?: void) => void} */ resolve) {
      if (pc.iceGatheringState === "complete") { resolve(); return; }
      var timer = setTimeout(resolve, ms);
      pc.addEventListener("icegatheringstatechange", function () {
        if (pc.iceGatheringState === "complete") { clearTimeout(timer); resolve(); }
      });
    });
  }

  /** @param {string} id */
  function ended(id) {
    var peer = peers.get(id);
    if (!peer || peer.ended) return;
    peer.ended = true;
    handlers.close(id);
  }

  /** @param {string} id @param {RTCDataChannel} channel */
  function wire(id, channel) {
    var peer = peers.get(id);
    if (!peer) return;
    peer.channel = channel;
    channel.onopen = function () { handlers.open(id); };
    channel.onmessage = function (event) {
      handlers.message(id, typeof event.data === "string" ? event.data : "");
    };
    channel.onclose = function () { ended(id); };
  }

  /** A new connection of its own; its id. @param {string} iceServers JSON: RTCIceServer[] */
  function make(iceServers) {
    var id = "p" + nextId++;
    var pc = new RTCPeerConnection({ iceServers: JSON.parse(iceServers || "[]") });
    peers.set(id, { pc: pc, channel: null, ended: false });
    pc.addEventListener("connectionstatechange", function () {
      if (pc.connectionState === "failed" || pc.connectionState === "closed") ended(id);
    });
    return id;
  }

  /** @param {string} id */
  function described(id) {
    return JSON.stringify({ id: id, sdp: connection(id).localDescription?.sdp });
  }

  /** The RTCPeerConnection of a connection of its own (not a room's). @param {string} id */
  function connection(id) {
    var pc = peers.get(id)?.pc;
    if (!pc) throw new Error("no connection " + id);
    return pc;
  }

  /** @param {unknown} error */
  function failure(error) {
    var message = error instanceof Object && "message" in error ? error.message : "";
    return JSON.stringify({ error: String(message || error) });
  }

  window.heartsP2P = {
    // Python's callbacks: open(id), message(id, text), close(id), and leave() when the
    // page goes away (its last chance to say goodbye before the connections close).
    listen: function (open, message, close, leave) {
      handlers = { open: open, message: message, close: close, leave: leave };
    },
    // Host: a new connection with its offer, once its network addresses are gathered.
    offer: async function (iceServers, waitMs) {
      try {
        var id = make(iceServers);
        var pc = connection(id);
        wire(id, pc.createDataChannel("hearts", { ordered: true }));
        await pc.setLocalDescription(await pc.createOffer());
        await gathered(pc, waitMs || 5000);
        return described(id);
      } catch (error) { return failure(error); }
    },
    // Host: the guest's answer (an SDP rebuilt from the answer code).
    accept: async function (id, sdp) {
      try {
        await connection(id).setRemoteDescription({ type: "answer", sdp: sdp });
        return "{}";
      } catch (error) { return failure(error); }
    },
    // Guest: answer the host's offer (an SDP rebuilt from the invite code).
    answer: async function (iceServers, sdp, waitMs) {
      try {
        var id = make(iceServers);
        var pc = connection(id);
        pc.ondatachannel = function (event) { wire(id, event.channel); };
        await pc.setRemoteDescription({ type: "offer", sdp: sdp });
        await pc.setLocalDescription(await pc.createAnswer());
        await gathered(pc, waitMs || 5000);
        return described(id);
      } catch (error) { return failure(error); }
    },
    // Meet through relays (web/static/room.mjs, loaded only now) in a named room ("table",
    // "lobby"): every page there is a connection "r:<name>:<peer>" with the same
    // open/message/close callbacks. Answers {"self": this page's id} or {error}.
    meet: async function (config) {
      try {
        /** @type {typeof import("./room.mjs")} */
        // @ts-ignore: static/room.js is room.mjs bundled by the build (tools/site/build.py)
        var module = await import("./room.js");
        var options = JSON.parse(config);
        var name = options.name;
        var prefix = "r:" + name + ":";
        if (rooms.has(name)) window.heartsP2P.unmeet(name);
        if (leaving.has(name)) await leaving.get(name);
        var joined = module.meet(options, {
          open: function (/** @type {string} */ peer) {
            peers.set(prefix + peer, { room: name, ended: false });
            handlers.open(prefix + peer);
          },
          message: function (/** @type {string} */ peer, /** @type {string} */ text) {
            if (peers.has(prefix + peer)) handlers.message(prefix + peer, text);
          },
          close: function (/** @type {string} */ peer) { ended(prefix + peer); peers.delete(prefix + peer); },
          error: function (/** @type {string} */ text) { console.warn("Hearts: meeting room: " + text); }
        });
        rooms.set(name, joined);
        // Answer once a relay is reached; a relay that never answers (a wrong address, no
        // network) is said, rather than leaving the page waiting in an empty room: at once
        // when every relay refused, else once a slow one had RELAY_WAIT_MS to answer.
        var wait = /** @type {Promise<boolean>} */ (new Promise(function (resolve) {
          setTimeout(function () { resolve(false); }, RELAY_WAIT_MS);
        }));
        await Promise.race([joined.settled(), wait]);
        if (!joined.reachable()) {
          if (rooms.get(name) === joined) window.heartsP2P.unmeet(name);
          return failure("no relay answered: " + options.relays.join(", "));
        }
        return JSON.stringify({ self: joined.self });
      } catch (error) { return failure(error); }
    },
    // The relay lobby (docs/protocol.md): event(sub, event JSON, plain text of a note to
    // this page or null) for each event whose id and signature hold, stored(sub) at EOSE;
    // name: the wire they come from ("lobby" unless said).
    listenLobby: function (event, stored, name) {
      wireHandlers.set(wireName(name), { event: event, stored: stored });
    },
    // A new wire to the relays (JSON list), with a fresh key, in place of any other of that
    // name. Answers {"key": public key} once a relay's socket is open, or {error}.
    lobby: async function (relays, name) {
      var called = wireName(name);
      try {
        /** @type {typeof import("./room.mjs")} */
        // @ts-ignore: static/room.js is room.mjs bundled by the build (tools/site/build.py)
        var module = await import("./room.js");
        var urls = JSON.parse(relays);
        window.heartsP2P.unlobby("[]", called);
        var mine = module.lobbyWire({ relays: urls }, {
          event: function (sub, event, plain) {
            if (wires.get(called) === mine) handlersOf(called).event(sub, JSON.stringify(event), plain);
          },
          stored: function (sub) { if (wires.get(called) === mine) handlersOf(called).stored(sub); }
        });
        wires.set(called, mine);
        // as meet: at once when every relay refused, else once a slow one had its time
        var wait = /** @type {Promise<boolean>} */ (new Promise(function (resolve) {
          setTimeout(function () { resolve(false); }, RELAY_WAIT_MS);
        }));
        await Promise.race([mine.settled(), wait]);
        if (!mine.reachable()) {
          if (wires.get(called) === mine) window.heartsP2P.unlobby("[]", called);
          return failure("no relay answered: " + urls.join(", "));
        }
        return wires.get(called) === mine ? JSON.stringify({ key: mine.pubkey }) : failure("closed");
      } catch (error) { return failure(error); }
    },
    // Sign and send an event (tags JSON; to: the key to seal it to, or ""); its id.
    publish: async function (kind, tags, content, to, createdAt, name) {
      var wire = wires.get(wireName(name));
      if (!wire) return "";
      return wire.publish(kind, JSON.parse(tags), content, to || null, createdAt);
    },
    subscribe: function (sub, filters, once, name) {
      var wire = wires.get(wireName(name));
      if (wire) wire.subscribe(sub, JSON.parse(filters), Boolean(once));
    },
    unsubscribe: function (sub, name) {
      var wire = wires.get(wireName(name));
      if (wire) wire.unsubscribe(sub);
    },
    // Events sent on the lobby's wire open now (the tests count a seated page's).
    lobbySent: function () {
      var wire = wires.get("lobby");
      return wire ? wire.sent() : 0;
    },
    // Off the relays, once the farewell events (JSON [[kind, tags, content]]: a LOOK or a
    // table's sign withdrawn) are signed and sent.
    unlobby: function (farewell, name) {
      var called = wireName(name);
      var closing = wires.get(called);
      wires.delete(called);
      if (!closing) return;
      /** @type {[number, string[][], string][]} */
      var last = JSON.parse(farewell || "[]");
      var now = Math.floor(Date.now() / 1000);
      Promise.all(last.map(function (event) {
        return closing ? closing.publish(event[0], event[1], event[2], null, now) : "";
      })).catch(nothing).then(function () { if (closing) closing.close(); });
    },
    // The rooms this page is in now, by name, and each relay wire open ("lobby", "sign")
    // by its name (the tests check that a seated page has left the lobby: it stops
    // announcing itself there).
    meetings: function () {
      var names = Array.from(rooms.keys());
      wires.forEach(function (_wire, name) { if (!names.includes(name)) names.push(name); });
      return names.sort();
    },
    // Leave a room (its connections close with it).
    unmeet: function (name) {
      var joined = rooms.get(name);
      if (joined) {
        // Trystero hands back a room still being left to whoever joins it again then:
        // meet waits for this to end first.
        leaving.set(name, Promise.resolve(joined.leave()).catch(nothing));
        rooms.delete(name);
      }
      peers.forEach(function (peer, id) { if (peer.room === name) peers.delete(id); });
    },
    send: function (id, text) {
      var peer = peers.get(id);
      if (peer && peer.room) {
        var joined = rooms.get(peer.room);
        if (joined) joined.send(id.slice(peer.room.length + 3), text);
        return Boolean(joined);
      }
      if (!peer || !peer.channel || peer.channel.readyState !== "open") return false;
      try { peer.channel.send(text); return true; } catch (error) { return false; }
    },
    // Close a connection (after its queued messages are sent); no close callback follows.
    close: function (id) {
      var peer = peers.get(id);
      if (!peer) return;
      peer.ended = true;
      peers.delete(id);
      if (peer.room) return;  // its messages are ignored from now on
      try { if (peer.channel) peer.channel.close(); } catch (error) { /* already closed */ }
      const pc = peer.pc;  // (const: narrowed inside the callback too)
      if (pc) setTimeout(function () { pc.close(); }, 1000);
    }
  };
  window.addEventListener("pagehide", function () {
    try { handlers.leave(); } catch (error) { /* the page is going anyway */ }
    rooms.forEach(function (joined) { try { joined.leave(); } catch (error) { /* gone */ } });
    wires.forEach(function (wire) { wire.close(); });
    peers.forEach(function (peer) { try { if (peer.pc) peer.pc.close(); } catch (error) { /* gone */ } });
  });
})();
