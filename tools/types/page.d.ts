// Types for tsc only (make check; never shipped): what the page's scripts share through
// `window`, and the shapes they pass each other.

/** A meeting room of web/static/room.mjs (bundled into static/room.js). */
interface Meeting {
  self: string;
  send(peer: string, text: string): void;
  leave(): Promise<void> | void;
  reachable(): boolean;
  settled(): Promise<boolean>;
}

/** web/static/p2p.js: WebRTC and relays for private tables, driven from web/friends/. */
interface HeartsP2P {
  listen(open: (id: string) => void, message: (id: string, text: string) => void,
         close: (id: string) => void, leave: () => void): void;
  offer(iceServers: string, waitMs?: number): Promise<string>;
  accept(id: string, sdp: string): Promise<string>;
  answer(iceServers: string, sdp: string, waitMs?: number): Promise<string>;
  meet(config: string): Promise<string>;
  meetings(): string[];
  unmeet(name: string): void;
  // Relay wires by name ("lobby" unless named: Play online's; "sign": a table's sign)
  listenLobby(event: (sub: string, event: string, plain: string | null) => void,
              stored: (sub: string) => void, name?: string): void;
  lobby(relays: string, name?: string): Promise<string>;
  publish(kind: number, tags: string, content: string, to: string,
          createdAt: number, name?: string): Promise<string>;
  subscribe(sub: string, filters: string, once: boolean, name?: string): void;
  unsubscribe(sub: string, name?: string): void;
  lobbySent(): number;
  unlobby(farewell?: string, name?: string): void;
  send(id: string, text: string): boolean;
  close(id: string): void;
}

interface Window {
  heartsP2P: HeartsP2P;
  /** web/static/boot.js: keep (or forget) the drawn table to paint at the next start. */
  heartsKeepTable?: (state: string, local: boolean) => void;
  /** web/static/boot.js: paint the kept table now. */
  heartsPaint?: () => void;
  /** web/static/boot.js: the taps kept on the painted table (cards), handed to Python once. */
  heartsTakeTaps?: () => string[];
  /** web/static/start.mjs: fetch the page's later Python (private tables, online play). */
  heartsLoadLater?: () => Promise<void>;
}
